import { z } from "zod";
import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { withAuditReason, ZAuditReasonInputSchema } from "~/server/trpc/audit-reason.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { listThreadsForDashboard } from "./thread-dashboard.service.ts";
import { startThreadFromMessage } from "./message-thread.service.ts";
import { ZMessageThreadBodySchema, ZThreadCreateBodySchema, ZThreadModifyBodySchema } from "./thread.schema.ts";
import { createThread, deleteThread, modifyThread } from "./thread.service.ts";

const ZThreadInputSchema = z.object({ channelId: ZSnowflakeSchema, ...ZAuditReasonInputSchema });

export const threadRouter = createTRPCRouter({
  list: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listThreadsForDashboard(ctx, input)),
  /** `channelId` is the parent channel. */
  create: protectedProcedure
    .input(ZThreadInputSchema.extend({ body: ZThreadCreateBodySchema }))
    .mutation(({ ctx, input }) => createThread(withAuditReason(ctx, input.reason), input)),
  /** Archive, unarchive, lock, unlock, rename. */
  modify: protectedProcedure
    .input(ZThreadInputSchema.extend({ body: ZThreadModifyBodySchema }))
    .mutation(({ ctx, input }) => modifyThread(withAuditReason(ctx, input.reason), input)),
  /** A public thread started from a message of `channelId`, taking the message's id. */
  startFromMessage: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, messageId: ZSnowflakeSchema, body: ZMessageThreadBodySchema }))
    .mutation(({ ctx, input }) => startThreadFromMessage(ctx, input)),
  delete: protectedProcedure.input(ZThreadInputSchema).mutation(({ ctx, input }) => deleteThread(withAuditReason(ctx, input.reason), input)),
});
