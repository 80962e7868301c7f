import { z } from "zod";
import { MESSAGE_LIMITS, ZMessageFieldsSchema } from "~/server/messages/message.schema.ts";
import { ZChannelNameSchema } from "~/server/channels/channel.schema.ts";
import { APPLIED_TAGS_MAX } from "~/server/threads/thread.schema.ts";
import { ZQueryBooleanSchema, ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { ZWebhookNameSchema } from "./webhook.schema.ts";

/** POST /webhooks/{webhook.id}/{webhook.token}: query. */
export const ZWebhookExecuteQuerySchema = z.object({
  wait: ZQueryBooleanSchema.optional(),
  thread_id: ZSnowflakeSchema.optional(),
  with_components: ZQueryBooleanSchema.optional(),
});
export type TWebhookExecuteQuery = z.output<typeof ZWebhookExecuteQuerySchema>;

/** POST /webhooks/{webhook.id}/{webhook.token}: the message fields plus the webhook's own (spec 4.8). */
export const ZWebhookExecuteBodySchema = ZMessageFieldsSchema.extend({
  // The override follows the webhook name rules (the reserved words included).
  username: ZWebhookNameSchema.nullish(),
  avatar_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullish(),
  // The name of the post it starts: a channel name.
  thread_name: ZChannelNameSchema.nullish(),
  applied_tags: z.array(ZSnowflakeSchema).max(APPLIED_TAGS_MAX).nullish(),
});
export type TWebhookExecuteBody = z.output<typeof ZWebhookExecuteBodySchema>;

/** The dashboard's test message: some text and one embed's title and description (spec 4.8 limits). */
export const ZWebhookTestMessageInputSchema = z.object({
  webhookId: ZSnowflakeSchema,
  content: z.string().max(MESSAGE_LIMITS.content).optional(),
  embed: z
    .object({ title: z.string().max(MESSAGE_LIMITS.embedTitle).optional(), description: z.string().max(MESSAGE_LIMITS.embedDescription).optional() })
    .optional(),
});
export type TWebhookTestMessageInput = z.output<typeof ZWebhookTestMessageInputSchema>;
