import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { withAuditReason, ZAuditReasonInputSchema } from "~/server/trpc/audit-reason.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZWidgetSettingsBodySchema } from "./widget.schema.ts";
import { getWidget, getWidgetSettings, modifyWidgetSettings } from "./widget.service.ts";

/** The dashboard's Widget page, over the services REST uses. */
export const widgetRouter = createTRPCRouter({
  settings: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => getWidgetSettings(ctx, input)),
  update: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ body: ZWidgetSettingsBodySchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => modifyWidgetSettings(withAuditReason(ctx, input.reason), input)),
  /** What GET /guilds/{guild.id}/widget.json answers anyone (50004 while the widget is off). */
  preview: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => getWidget(ctx.db, input)),
});
