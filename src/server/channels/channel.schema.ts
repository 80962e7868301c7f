import { ChannelFlags, ChannelType } from "discord-api-types/v10";
import { z } from "zod";
import { intBetween, intChoice, lengthBetween, ZPermissionStringSchema, ZSnowflakeSchema } from "~/server/validation/fields.ts";

const CHANNEL_NAME_MIN = 1;
export const CHANNEL_NAME_MAX = 100;
export const CHANNEL_TOPIC_MAX = 1024;
export const RATE_LIMIT_PER_USER_MAX = 21600;
const BITRATE_MIN = 8000;
export const DEFAULT_BITRATE = 64000;
/** Voice bitrate ceiling by boost tier (index = premium_tier). */
export const VOICE_BITRATE_MAX_BY_TIER = [96000, 128000, 256000, 384000] as const;
/** VIP_REGIONS guilds get the top tier's ceiling whatever their boosts. */
export const VIP_BITRATE_MAX = 384000;
export const STAGE_BITRATE_MAX = 64000;
export const VOICE_USER_LIMIT_MAX = 99;
export const STAGE_USER_LIMIT_MAX = 10000;
export const MAX_GUILD_CHANNELS = 500;
export const MAX_CATEGORY_CHANNELS = 50;
export const MAX_PERMISSION_OVERWRITES = 100;
export const MAX_AVAILABLE_TAGS = 20;
const TAG_NAME_MAX = 50;
const EMOJI_NAME_MAX = 100;
export const AUTO_ARCHIVE_DURATIONS = [60, 1440, 4320, 10080] as const;
const VIDEO_QUALITY_MODES = [1, 2] as const;
const SORT_ORDERS = [0, 1] as const;
const FORUM_LAYOUTS = [0, 1, 2] as const;
/** Positions are 32-bit on the wire. */
const POSITION_MAX = 2147483647;

const T = ChannelType;

/** Channel types a guild channel can be created as (threads and DMs come from elsewhere). */
export const GUILD_CHANNEL_TYPES = [T.GuildText, T.GuildVoice, T.GuildCategory, T.GuildAnnouncement, T.GuildStageVoice, T.GuildForum, T.GuildMedia] as const;

/** The body fields each channel type uses (spec table 4.4); others are ignored for that type. */
const FIELD_CHANNEL_TYPES = {
  topic: [T.GuildText, T.GuildAnnouncement, T.GuildForum, T.GuildMedia],
  bitrate: [T.GuildVoice, T.GuildStageVoice],
  user_limit: [T.GuildVoice, T.GuildStageVoice],
  rate_limit_per_user: [T.GuildText, T.GuildVoice, T.GuildStageVoice, T.GuildForum, T.GuildMedia],
  parent_id: [T.GuildText, T.GuildVoice, T.GuildAnnouncement, T.GuildStageVoice, T.GuildForum, T.GuildMedia],
  nsfw: [T.GuildText, T.GuildVoice, T.GuildAnnouncement, T.GuildStageVoice, T.GuildForum],
  rtc_region: [T.GuildVoice, T.GuildStageVoice],
  video_quality_mode: [T.GuildVoice, T.GuildStageVoice],
  default_auto_archive_duration: [T.GuildText, T.GuildAnnouncement, T.GuildForum, T.GuildMedia],
  default_reaction_emoji: [T.GuildForum, T.GuildMedia],
  available_tags: [T.GuildForum, T.GuildMedia],
  default_sort_order: [T.GuildForum, T.GuildMedia],
  default_forum_layout: [T.GuildForum],
  default_thread_rate_limit_per_user: [T.GuildText, T.GuildAnnouncement, T.GuildForum, T.GuildMedia],
  flags: [T.GuildText, T.GuildVoice, T.GuildAnnouncement, T.GuildForum, T.GuildMedia],
} as const satisfies Record<string, readonly ChannelType[]>;

export type ChannelTypedField = keyof typeof FIELD_CHANNEL_TYPES;

export function fieldAppliesTo(field: ChannelTypedField, type: number): boolean {
  return (FIELD_CHANNEL_TYPES[field] as readonly number[]).includes(type);
}

/** Channel flags a caller may set, per type; the others are the platform's to set. */
export const EDITABLE_CHANNEL_FLAGS: Readonly<Partial<Record<number, number>>> = {
  [T.GuildForum]: ChannelFlags.RequireTag,
  [T.GuildMedia]: ChannelFlags.RequireTag | ChannelFlags.HideMediaDownloadOptions,
};

export const ZChannelNameSchema = lengthBetween(CHANNEL_NAME_MIN, CHANNEL_NAME_MAX, { trim: true });
const ZGuildChannelTypeSchema = intChoice(GUILD_CHANNEL_TYPES);

// Permission values arrive as decimal strings (or plain integers from older clients);
// omitted and null both mean "no bits".
const ZOverwritePermissionsSchema = z
  .union([ZPermissionStringSchema, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)])
  .nullish()
  .transform((value) => (value === null || value === undefined ? 0n : BigInt(value)));

/** A partial overwrite in a request; `type` may be left out and is then inferred from the id. */
const ZOverwriteInputSchema = z.object({
  id: ZSnowflakeSchema,
  type: intChoice([0, 1] as const).nullish(),
  allow: ZOverwritePermissionsSchema,
  deny: ZOverwritePermissionsSchema,
});
export type TOverwriteInput = z.output<typeof ZOverwriteInputSchema>;

/** PUT /channels/{channel.id}/permissions/{overwrite.id}: the overwrite's target is the path's; `type` may be inferred as in a channel edit. */
export const ZOverwriteEditBodySchema = ZOverwriteInputSchema.omit({ id: true });
export type TOverwriteEditBody = z.output<typeof ZOverwriteEditBodySchema>;

const ZForumTagInputSchema = z.object({
  id: ZSnowflakeSchema.optional(),
  name: lengthBetween(0, TAG_NAME_MAX),
  moderated: z.boolean().nullish(),
  emoji_id: ZSnowflakeSchema.nullish(),
  emoji_name: z.string().max(EMOJI_NAME_MAX).nullish(),
});
export type TForumTagInput = z.output<typeof ZForumTagInputSchema>;

const ZDefaultReactionInputSchema = z.object({
  emoji_id: ZSnowflakeSchema.nullish(),
  emoji_name: z.string().max(EMOJI_NAME_MAX).nullish(),
});

// Shared by create and modify: in create, null means "the default"; in modify, undefined
// leaves a field as it is and null resets it to the default.
const channelFields = {
  type: ZGuildChannelTypeSchema.nullish(),
  topic: lengthBetween(0, CHANNEL_TOPIC_MAX).nullish(),
  bitrate: z.number().int().min(BITRATE_MIN).nullish(),
  user_limit: intBetween(0, STAGE_USER_LIMIT_MAX).nullish(),
  rate_limit_per_user: intBetween(0, RATE_LIMIT_PER_USER_MAX).nullish(),
  position: intBetween(0, POSITION_MAX).nullish(),
  permission_overwrites: z.array(ZOverwriteInputSchema).max(MAX_PERMISSION_OVERWRITES).nullish(),
  parent_id: ZSnowflakeSchema.nullish(),
  nsfw: z.boolean().nullish(),
  rtc_region: z.string().nullish(),
  video_quality_mode: intChoice(VIDEO_QUALITY_MODES).nullish(),
  default_auto_archive_duration: intChoice(AUTO_ARCHIVE_DURATIONS).nullish(),
  default_reaction_emoji: ZDefaultReactionInputSchema.nullish(),
  available_tags: z.array(ZForumTagInputSchema).max(MAX_AVAILABLE_TAGS).nullish(),
  default_sort_order: intChoice(SORT_ORDERS).nullish(),
  default_forum_layout: intChoice(FORUM_LAYOUTS).nullish(),
  default_thread_rate_limit_per_user: intBetween(0, RATE_LIMIT_PER_USER_MAX).nullish(),
  flags: z.number().int().min(0).nullish(),
};

/** POST /guilds/{guild.id}/channels (spec 4.4): everything optional and nullable but name. */
export const ZChannelCreateBodySchema = z.object({ name: ZChannelNameSchema, ...channelFields });
export type TChannelCreateBody = z.output<typeof ZChannelCreateBodySchema>;

/** PATCH /channels/{channel.id}: the create fields, all optional. */
export const ZChannelModifyBodySchema = z.object({ name: ZChannelNameSchema.optional(), ...channelFields });
export type TChannelModifyBody = z.output<typeof ZChannelModifyBodySchema>;

/** One row of PATCH /guilds/{guild.id}/channels; only the channels to change are sent. */
const ZChannelPositionSchema = z.object({
  id: ZSnowflakeSchema,
  position: intBetween(0, POSITION_MAX).nullish(),
  lock_permissions: z.boolean().nullish(),
  parent_id: ZSnowflakeSchema.nullish(),
});
/** A guild has at most MAX_GUILD_CHANNELS channels, so a longer list cannot be a reorder. */
export const ZChannelPositionsBodySchema = z.array(ZChannelPositionSchema).max(MAX_GUILD_CHANNELS);
export type TChannelPosition = z.output<typeof ZChannelPositionSchema>;
