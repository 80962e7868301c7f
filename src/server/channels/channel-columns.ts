// The type-specific columns a channel create or modify body turns into, within the limits
// of the channel's type and the guild's boosts and features.
import { ChannelType, GuildFeature } from "discord-api-types/v10";
import type { Channel, Guild } from "~/generated/prisma/client.ts";
import { invalidField, type ApiError } from "~/server/errors.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { parseTags, type ChannelRow, type ForumTagObject } from "./channel.dto.ts";
import {
  DEFAULT_BITRATE,
  EDITABLE_CHANNEL_FLAGS,
  fieldAppliesTo,
  STAGE_BITRATE_MAX,
  STAGE_USER_LIMIT_MAX,
  VIP_BITRATE_MAX,
  VOICE_BITRATE_MAX_BY_TIER,
  VOICE_USER_LIMIT_MAX,
  type ChannelTypedField,
  type TChannelModifyBody,
  type TForumTagInput,
} from "./channel.schema.ts";

type TypedField = Exclude<ChannelTypedField, "parent_id">;
type TypedColumns = Partial<
  Pick<
    Channel,
    | "topic"
    | "bitrate"
    | "userLimit"
    | "rateLimitPerUser"
    | "nsfw"
    | "rtcRegion"
    | "videoQualityMode"
    | "defaultAutoArchiveDuration"
    | "defaultReactionEmoji"
    | "availableTags"
    | "defaultSortOrder"
    | "defaultForumLayout"
    | "defaultThreadRateLimitPerUser"
    | "flags"
  >
>;

/**
 * The type-specific columns of a create (`current` null: every field the type uses, with
 * defaults) or a modify (only the fields sent; null resets to the default). Fields that
 * another channel type uses are ignored, as the platform ignores them.
 */
export function typedColumns(input: { type: number; body: TChannelModifyBody; guild: Guild; current: ChannelRow | null }): TypedColumns {
  const { type, body, guild, current } = input;
  function value<K extends TypedField, F>(field: K, fallback: F): NonNullable<TChannelModifyBody[K]> | F | undefined {
    if (!fieldAppliesTo(field, type) || (current && body[field] === undefined)) return undefined;
    return body[field] ?? fallback;
  }
  const columns: TypedColumns = {};

  const topic = value("topic", null);
  if (topic !== undefined) columns.topic = topic;
  const bitrate = value("bitrate", DEFAULT_BITRATE);
  if (bitrate !== undefined) {
    const max = maxBitrate(guild, type);
    if (bitrate > max) throw tooLarge("bitrate", max);
    columns.bitrate = bitrate;
  }
  const userLimit = value("user_limit", 0);
  if (userLimit !== undefined) {
    const max = type === ChannelType.GuildStageVoice ? STAGE_USER_LIMIT_MAX : VOICE_USER_LIMIT_MAX;
    if (userLimit > max) throw tooLarge("user_limit", max);
    columns.userLimit = userLimit;
  }
  const tags = value("available_tags", null);
  if (tags !== undefined) columns.availableTags = tags === null ? null : JSON.stringify(toTags(tags, parseTags(current?.availableTags ?? null)));
  const reaction = value("default_reaction_emoji", null);
  if (reaction !== undefined)
    columns.defaultReactionEmoji = reaction === null ? null : JSON.stringify({ emoji_id: reaction.emoji_id ?? null, emoji_name: reaction.emoji_name ?? null });
  const flags = value("flags", 0);
  if (flags !== undefined) {
    // Only some flags are the caller's to set; the rest keep what the platform put there.
    const editable = EDITABLE_CHANNEL_FLAGS[type] ?? 0;
    columns.flags = ((current?.flags ?? 0) & ~editable) | (flags & editable);
  }

  const set = <C extends keyof TypedColumns>(column: C, v: TypedColumns[C] | undefined) => {
    if (v !== undefined) columns[column] = v;
  };
  set("rateLimitPerUser", value("rate_limit_per_user", 0));
  set("nsfw", value("nsfw", false));
  set("rtcRegion", value("rtc_region", null));
  set("videoQualityMode", value("video_quality_mode", null));
  set("defaultAutoArchiveDuration", value("default_auto_archive_duration", null));
  set("defaultSortOrder", value("default_sort_order", null));
  set("defaultForumLayout", value("default_forum_layout", 0));
  set("defaultThreadRateLimitPerUser", value("default_thread_rate_limit_per_user", null));
  return columns;
}

function tooLarge(field: string, max: number): ApiError {
  return invalidField([field], "NUMBER_TYPE_MAX", `int value should be less than or equal to ${max}.`);
}

/** Voice bitrate ceiling by boost tier, or the VIP one; stage channels have their own. */
function maxBitrate(guild: Guild, type: number): number {
  if (type === ChannelType.GuildStageVoice) return STAGE_BITRATE_MAX;
  if (parseFeatures(guild.features).includes(GuildFeature.VIPRegions)) return VIP_BITRATE_MAX;
  return VOICE_BITRATE_MAX_BY_TIER[guild.premiumTier] ?? VIP_BITRATE_MAX;
}

/** Tags keep their id when the request names an existing one; new tags get a new id. */
function toTags(input: readonly TForumTagInput[], existing: readonly ForumTagObject[]): ForumTagObject[] {
  const known = new Set(existing.map((tag) => tag.id));
  return input.map((tag) => ({
    id: tag.id && known.has(tag.id) ? tag.id : newId(),
    name: tag.name,
    moderated: tag.moderated ?? false,
    emoji_id: tag.emoji_id ?? null,
    emoji_name: tag.emoji_name ?? null,
  }));
}

/** Announcement channels need the NEWS feature, which COMMUNITY guilds have. */
export function hasAnnouncements(guild: Guild): boolean {
  const features = parseFeatures(guild.features);
  return features.includes(GuildFeature.News) || features.includes(GuildFeature.Community);
}

export function typeChoicesError(choices: readonly number[]): ApiError {
  return invalidField(["type"], "BASE_TYPE_CHOICES", `Value must be one of {${choices.join(", ")}}.`);
}
