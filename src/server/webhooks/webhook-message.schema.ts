import { z } from "zod";
import { ZEditMessageBody } from "~/server/messages/message.schema.ts";
import { ZQueryBoolean, ZSnowflake } from "~/server/validation/fields.ts";

/** GET and DELETE /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}: query. */
export const ZWebhookMessageQuery = z.object({ thread_id: ZSnowflake.optional() });
export type TWebhookMessageQuery = z.output<typeof ZWebhookMessageQuery>;

/** PATCH /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}: query. */
export const ZWebhookMessageEditQuery = ZWebhookMessageQuery.extend({ with_components: ZQueryBoolean.optional() });
export type TWebhookMessageEditQuery = z.output<typeof ZWebhookMessageEditQuery>;

/**
 * The edit body of spec 4.8: a message edit plus `poll`, which is read only to be refused
 * (a poll is editable only in a deferred interaction response, and there are none here).
 */
export const ZWebhookMessageEditBody = ZEditMessageBody.extend({ poll: z.unknown().optional() });
export type TWebhookMessageEditBody = z.output<typeof ZWebhookMessageEditBody>;
