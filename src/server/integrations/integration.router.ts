import { z } from "zod";
import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { withAuditReason, ZAuditReasonInputSchema } from "~/server/trpc/audit-reason.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { deleteGuildIntegration, listGuildIntegrations } from "./integration.service.ts";

export const integrationRouter = createTRPCRouter({
  list: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listGuildIntegrations(ctx, input)),
  remove: protectedProcedure
    .input(z.object({ guildId: ZSnowflakeSchema, integrationId: ZSnowflakeSchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => deleteGuildIntegration(withAuditReason(ctx, input.reason), input)),
});
