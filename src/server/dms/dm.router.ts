import { z } from "zod";
import { MESSAGE_LIMITS } from "~/server/messages/message.schema.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { listDashboardDms, readDashboardDm, sendDashboardDm } from "./dm-dashboard.service.ts";

/** The signed-in user's direct messages (the account menu's Direct messages). */
export const dmRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listDashboardDms(ctx)),
  messages: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, before: ZSnowflakeSchema.nullish() }))
    .query(({ ctx, input }) => readDashboardDm(ctx, input)),
  send: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, content: z.string().trim().min(1).max(MESSAGE_LIMITS.content) }))
    .mutation(({ ctx, input }) => sendDashboardDm(ctx, input)),
});
