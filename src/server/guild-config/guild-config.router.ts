import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { withAuditReason, ZAuditReasonInputSchema } from "~/server/trpc/audit-reason.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZIncidentActionsBodySchema, ZWelcomeScreenBodySchema } from "./guild-config.schema.ts";
import { setIncidentActions } from "./incident-actions.service.ts";
import { getWelcomeScreen, modifyWelcomeScreen } from "./welcome-screen.service.ts";

/** The dashboard's Welcome screen and Safety pages, over the services REST uses. */
export const guildConfigRouter = createTRPCRouter({
  welcomeScreen: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => getWelcomeScreen(ctx, input)),
  updateWelcomeScreen: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ body: ZWelcomeScreenBodySchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => modifyWelcomeScreen(withAuditReason(ctx, input.reason), input)),
  setIncidentActions: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ body: ZIncidentActionsBodySchema }))
    .mutation(({ ctx, input }) => setIncidentActions(ctx, input)),
});
