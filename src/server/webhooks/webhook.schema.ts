import { ChannelType } from "discord-api-types/v10";
import { z } from "zod";
import { ZImageData } from "~/server/images/image.schema.ts";
import { ZSnowflake } from "~/server/validation/fields.ts";

export const WEBHOOK_NAME_MAX = 80;
/** The platform's two reserved brand words: no webhook name may contain them, in any case (spec 4.8). */
const WEBHOOK_RESERVED_WORDS = ["clyde", "discord"] as const;
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
 * space, at least one character) with up to 80 characters, and no reserved brand word.
 */
export const ZWebhookName = z
  .string()
  .overwrite((value) => value.trim().replace(/\s+/g, " "))
  .check((ctx) => {
    const length = [...ctx.value].length;
    if (length < 1 || length > WEBHOOK_NAME_MAX) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `Must be between 1 and ${WEBHOOK_NAME_MAX} in length.`,
        params: { code: "BASE_TYPE_BAD_LENGTH" },
      });
      return;
    }
    const lower = ctx.value.toLowerCase();
    const reserved = WEBHOOK_RESERVED_WORDS.find((word) => lower.includes(word));
    if (reserved) {
      ctx.issues.push({ code: "custom", input: ctx.value, message: `Username cannot contain "${reserved}"`, params: { code: "USERNAME_INVALID_CONTAINS" } });
    }
  });

/** POST /channels/{channel.id}/webhooks */
export const ZWebhookCreateBodySchema = z.object({ name: ZWebhookName, avatar: ZImageData.optional() });
export type TWebhookCreateBody = z.output<typeof ZWebhookCreateBodySchema>;

/** PATCH /webhooks/{webhook.id}/{webhook.token}: no move with the token. */
export const ZWebhookTokenModifyBodySchema = z.object({ name: ZWebhookName.optional(), avatar: ZImageData.optional() });
export type TWebhookTokenModifyBody = z.output<typeof ZWebhookTokenModifyBodySchema>;

/** PATCH /webhooks/{webhook.id}: name, avatar, and channel_id to move it within its guild. */
export const ZWebhookModifyBodySchema = ZWebhookTokenModifyBodySchema.extend({ channel_id: ZSnowflake.nullable().optional() });
export type TWebhookModifyBody = z.output<typeof ZWebhookModifyBodySchema>;

/** POST /channels/{channel.id}/followers: the channel the follower webhook posts in. */
export const ZChannelFollowBodySchema = z.object({ webhook_channel_id: ZSnowflake });
export type TChannelFollowBody = z.output<typeof ZChannelFollowBodySchema>;
