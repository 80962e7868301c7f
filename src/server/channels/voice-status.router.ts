import { z } from "zod";
import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { withAuditReason, ZAuditReasonInputSchema } from "~/server/trpc/audit-reason.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { ZVoiceStatusBodySchema } from "./voice-status.schema.ts";
import { listVoiceStatuses, setVoiceChannelStatus } from "./voice-status.service.ts";

export const voiceStatusRouter = createTRPCRouter({
  list: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listVoiceStatuses(ctx, input)),
  set: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, body: ZVoiceStatusBodySchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => setVoiceChannelStatus(withAuditReason(ctx, input.reason), input)),
});
