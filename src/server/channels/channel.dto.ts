import { ChannelType } from "discord-api-types/v10";
import type { PermissionOverwrite, Prisma } from "~/generated/prisma/client.ts";
import { serializePermissions } from "~/server/permissions/permissions.ts";
import { compareSnowflakes } from "~/server/snowflake/snowflake.ts";

export const CHANNEL_INCLUDE = { overwrites: true } satisfies Prisma.ChannelInclude;
export const THREAD_TYPES: number[] = [ChannelType.AnnouncementThread, ChannelType.PublicThread, ChannelType.PrivateThread];
/** A `where` on channel type: the guild's channels without its threads. */
export const NOT_A_THREAD = { notIn: THREAD_TYPES };
export type ChannelRow = Prisma.ChannelGetPayload<{ include: typeof CHANNEL_INCLUDE }>;

export type OverwriteObject = { id: string; type: 0 | 1; allow: string; deny: string };
export type ForumTagObject = { id: string; name: string; moderated: boolean; emoji_id: string | null; emoji_name: string | null };
type DefaultReactionObject = { emoji_id: string | null; emoji_name: string | null };

export type ChannelObject = {
  id: string;
  type: number;
  guild_id: string | null;
  name: string;
  position: number;
  flags: number;
  parent_id: string | null;
  permission_overwrites: OverwriteObject[];
  last_message_id?: string | null;
  topic?: string | null;
  nsfw?: boolean;
  rate_limit_per_user?: number;
  bitrate?: number;
  user_limit?: number;
  rtc_region?: string | null;
  video_quality_mode?: number;
  default_auto_archive_duration?: number;
  default_thread_rate_limit_per_user?: number;
  available_tags?: ForumTagObject[];
  default_reaction_emoji?: DefaultReactionObject | null;
  default_sort_order?: number | null;
  default_forum_layout?: number;
};

/** Overwrites in a stable order: roles before members, then by id (@everyone first). */
export function toOverwriteObjects(rows: readonly Pick<PermissionOverwrite, "targetId" | "type" | "allow" | "deny">[]): OverwriteObject[] {
  return [...rows]
    .sort((a, b) => a.type - b.type || compareSnowflakes(a.targetId, b.targetId))
    .map((o) => ({ id: o.targetId, type: o.type === 1 ? 1 : 0, allow: serializePermissions(o.allow), deny: serializePermissions(o.deny) }));
}

export function parseTags(json: string | null): ForumTagObject[] {
  return json ? (JSON.parse(json) as ForumTagObject[]) : [];
}

function parseDefaultReaction(json: string | null): DefaultReactionObject | null {
  return json ? (JSON.parse(json) as DefaultReactionObject) : null;
}

const TEXT_TYPES: readonly number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement];
const VOICE_TYPES: readonly number[] = [ChannelType.GuildVoice, ChannelType.GuildStageVoice];
const FORUM_TYPES: readonly number[] = [ChannelType.GuildForum, ChannelType.GuildMedia];

/** Channel row → the platform's channel object, with the fields its type carries. */
export function toChannelObject(channel: ChannelRow): ChannelObject {
  const object: ChannelObject = {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guildId,
    name: channel.name,
    position: channel.position,
    flags: channel.flags,
    parent_id: channel.parentId,
    permission_overwrites: toOverwriteObjects(channel.overwrites),
  };
  if (channel.type === ChannelType.GuildCategory) return object;

  object.last_message_id = channel.lastMessageId;
  object.nsfw = channel.nsfw;
  object.rate_limit_per_user = channel.rateLimitPerUser ?? 0;
  // Optional thread defaults appear once set, as on the platform.
  const archive = channel.defaultAutoArchiveDuration;
  const threadSlowmode = channel.defaultThreadRateLimitPerUser;
  if (TEXT_TYPES.includes(channel.type)) {
    object.topic = channel.topic;
    if (archive !== null) object.default_auto_archive_duration = archive;
    if (threadSlowmode !== null) object.default_thread_rate_limit_per_user = threadSlowmode;
  } else if (VOICE_TYPES.includes(channel.type)) {
    object.bitrate = channel.bitrate ?? 0;
    object.user_limit = channel.userLimit ?? 0;
    object.rtc_region = channel.rtcRegion;
    if (channel.videoQualityMode !== null) object.video_quality_mode = channel.videoQualityMode;
  } else if (FORUM_TYPES.includes(channel.type)) {
    object.topic = channel.topic;
    object.available_tags = parseTags(channel.availableTags);
    object.default_reaction_emoji = parseDefaultReaction(channel.defaultReactionEmoji);
    object.default_sort_order = channel.defaultSortOrder;
    object.default_thread_rate_limit_per_user = threadSlowmode ?? 0;
    if (channel.type === ChannelType.GuildForum) object.default_forum_layout = channel.defaultForumLayout ?? 0;
    if (archive !== null) object.default_auto_archive_duration = archive;
  }
  return object;
}

/** Channels in the platform's order: by position, ties by id. */
export function sortChannels<C extends { position: number; id: string }>(channels: readonly C[]): C[] {
  return [...channels].sort((a, b) => a.position - b.position || compareSnowflakes(a.id, b.id));
}
