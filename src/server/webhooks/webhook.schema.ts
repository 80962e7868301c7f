import { ChannelType } from "discord-api-types/v10";
import { z } from "zod";
import { ZImageDataSchema } from "~/server/images/image.schema.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { webhookNameProblem } from "./webhook-name.ts";

export { WEBHOOK_NAME_MAX } from "./webhook-name.ts";

/** Webhooks per channel and per guild, as on the platform. */
export const CHANNEL_WEBHOOKS_MAX = 15;
export const GUILD_WEBHOOKS_MAX = 1000;

/** Channels a webhook may post in: not categories, not threads (a thread is reached with thread_id). */
export const WEBHOOK_CHANNEL_TYPES: ReadonlySet<number> = new Set([
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
  ChannelType.GuildVoice,
  ChannelType.GuildStageVoice,
  ChannelType.GuildForum,
  ChannelType.GuildMedia,
]);

/**
 * A webhook name (spec 4.8): the nickname rules (trimmed, inner runs of whitespace made one
 * space, something visible) with up to 80 characters, and no reserved brand word
 * (webhook-name.ts).
 */
export const ZWebhookNameSchema = z
  .string()
  .overwrite((value) => value.trim().replace(/\s+/g, " "))
  .check((ctx) => {
    const problem = webhookNameProblem(ctx.value);
    if (problem) ctx.issues.push({ code: "custom", input: ctx.value, message: problem.message, params: { code: problem.code } });
  });

/** POST /channels/{channel.id}/webhooks */
export const ZWebhookCreateBodySchema = z.object({ name: ZWebhookNameSchema, avatar: ZImageDataSchema.optional() });
export type TWebhookCreateBody = z.output<typeof ZWebhookCreateBodySchema>;

/** PATCH /webhooks/{webhook.id}/{webhook.token}: no move with the token. */
export const ZWebhookTokenModifyBodySchema = z.object({ name: ZWebhookNameSchema.optional(), avatar: ZImageDataSchema.optional() });
export type TWebhookTokenModifyBody = z.output<typeof ZWebhookTokenModifyBodySchema>;

/** PATCH /webhooks/{webhook.id}: name, avatar, and channel_id to move it within its guild. */
export const ZWebhookModifyBodySchema = ZWebhookTokenModifyBodySchema.extend({ channel_id: ZSnowflakeSchema.nullable().optional() });
export type TWebhookModifyBody = z.output<typeof ZWebhookModifyBodySchema>;

/** POST /channels/{channel.id}/followers: the channel the follower webhook posts in. */
export const ZChannelFollowBodySchema = z.object({ webhook_channel_id: ZSnowflakeSchema });
export type TChannelFollowBody = z.output<typeof ZChannelFollowBodySchema>;
