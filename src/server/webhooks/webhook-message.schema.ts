import { z } from "zod";
import { ZEditMessageBodySchema } from "~/server/messages/message.schema.ts";
import { ZQueryBooleanSchema, ZSnowflakeSchema } from "~/server/validation/fields.ts";

/** GET and DELETE /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}: query. */
export const ZWebhookMessageQuerySchema = z.object({ thread_id: ZSnowflakeSchema.optional() });
export type TWebhookMessageQuery = z.output<typeof ZWebhookMessageQuerySchema>;

/** PATCH /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}: query. */
export const ZWebhookMessageEditQuerySchema = ZWebhookMessageQuerySchema.extend({ with_components: ZQueryBooleanSchema.optional() });
export type TWebhookMessageEditQuery = z.output<typeof ZWebhookMessageEditQuerySchema>;

/**
 * The edit body of spec 4.8: a message edit plus `poll`, which is read only to be refused
 * (a poll is editable only in a deferred interaction response, and there are none here).
 */
export const ZWebhookMessageEditBodySchema = ZEditMessageBodySchema.extend({ poll: z.unknown().optional() });
export type TWebhookMessageEditBody = z.output<typeof ZWebhookMessageEditBodySchema>;
