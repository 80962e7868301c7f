import { z } from "zod";
import { MESSAGE_LIMITS, ZMessageFields } from "~/server/messages/message.schema.ts";
import { ZChannelName } from "~/server/channels/channel.schema.ts";
import { APPLIED_TAGS_MAX } from "~/server/threads/thread.schema.ts";
import { ZQueryBoolean, ZSnowflake } from "~/server/validation/fields.ts";
import { ZWebhookName } from "./webhook.schema.ts";

/** POST /webhooks/{webhook.id}/{webhook.token}: query. */
export const ZWebhookExecuteQuery = z.object({
  wait: ZQueryBoolean.optional(),
  thread_id: ZSnowflake.optional(),
  with_components: ZQueryBoolean.optional(),
});
export type TWebhookExecuteQuery = z.output<typeof ZWebhookExecuteQuery>;

/** POST /webhooks/{webhook.id}/{webhook.token}: the message fields plus the webhook's own (spec 4.8). */
export const ZWebhookExecuteBody = ZMessageFields.extend({
  // The override follows the webhook name rules (the reserved words included).
  username: ZWebhookName.nullish(),
  avatar_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullish(),
  // The name of the post it starts: a channel name.
  thread_name: ZChannelName.nullish(),
  applied_tags: z.array(ZSnowflake).max(APPLIED_TAGS_MAX).nullish(),
});
export type TWebhookExecuteBody = z.output<typeof ZWebhookExecuteBody>;

/** The dashboard's test message: some text and one embed's title and description (spec 4.8 limits). */
export const ZWebhookTestMessageInput = z.object({
  webhookId: ZSnowflake,
  content: z.string().max(MESSAGE_LIMITS.content).optional(),
  embed: z
    .object({ title: z.string().max(MESSAGE_LIMITS.embedTitle).optional(), description: z.string().max(MESSAGE_LIMITS.embedDescription).optional() })
    .optional(),
});
export type TWebhookTestMessageInput = z.output<typeof ZWebhookTestMessageInput>;
