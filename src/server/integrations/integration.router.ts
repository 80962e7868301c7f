import { z } from "zod";
import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { withAuditReason, ZAuditReasonInput } from "~/server/trpc/audit-reason.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflake } from "~/server/validation/fields.ts";
import { deleteGuildIntegration, listGuildIntegrations } from "./integration.service.ts";

export const integrationRouter = createTRPCRouter({
  list: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listGuildIntegrations(ctx, input)),
  remove: protectedProcedure
    .input(z.object({ guildId: ZSnowflake, integrationId: ZSnowflake, ...ZAuditReasonInput }))
    .mutation(({ ctx, input }) => deleteGuildIntegration(withAuditReason(ctx, input.reason), input)),
});
