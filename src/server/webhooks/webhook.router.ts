import { z } from "zod";
import { withAuditReason, ZAuditReasonInputSchema } from "~/server/trpc/audit-reason.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { loadFollowTargets } from "./channel-follow-dashboard.service.ts";
import { followChannel } from "./channel-follow.service.ts";
import { loadChannelWebhooksView, sendTestForDashboard } from "./webhook-dashboard.service.ts";
import { ZWebhookTestMessageInputSchema } from "./webhook-execute.schema.ts";
import { ZChannelFollowBodySchema, ZWebhookCreateBodySchema, ZWebhookModifyBodySchema } from "./webhook.schema.ts";
import { createWebhook, deleteWebhook, modifyWebhook } from "./webhook.service.ts";

export const webhookRouter = createTRPCRouter({
  /** A channel's webhooks with what the signed-in user may do there. */
  channel: protectedProcedure.input(z.object({ channelId: ZSnowflakeSchema })).query(({ ctx, input }) => loadChannelWebhooksView(ctx, input)),
  create: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, body: ZWebhookCreateBodySchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => createWebhook(withAuditReason(ctx, input.reason), input)),
  modify: protectedProcedure
    .input(z.object({ webhookId: ZSnowflakeSchema, body: ZWebhookModifyBodySchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => modifyWebhook(withAuditReason(ctx, input.reason), input)),
  delete: protectedProcedure
    .input(z.object({ webhookId: ZSnowflakeSchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => deleteWebhook(withAuditReason(ctx, input.reason), input)),
  /** The channels of the user's guilds an announcement channel could be followed into. */
  followTargets: protectedProcedure.input(z.object({ channelId: ZSnowflakeSchema })).query(({ ctx, input }) => loadFollowTargets(ctx, input)),
  /** Follows an announcement channel (channelId) into body.webhook_channel_id. */
  follow: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, body: ZChannelFollowBodySchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => followChannel(withAuditReason(ctx, input.reason), input)),
  sendTest: protectedProcedure.input(ZWebhookTestMessageInputSchema).mutation(({ ctx, input }) => sendTestForDashboard(ctx, input)),
});
