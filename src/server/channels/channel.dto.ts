import {
  ChannelType,
  type APIGuildCategoryChannel,
  type APIGuildForumChannel,
  type APIGuildForumDefaultReactionEmoji,
  type APIGuildForumTag,
  type APIGuildMediaChannel,
  type APIGuildStageVoiceChannel,
  type APIGuildVoiceChannel,
  type APINewsChannel,
  type APIOverwrite,
  type APITextChannel,
  type ChannelFlags,
  type ForumLayoutType,
  type SortOrderType,
  type ThreadAutoArchiveDuration,
  type VideoQualityMode,
} from "discord-api-types/v10";
import type { PermissionOverwrite, Prisma } from "~/generated/prisma/client.ts";
import { serializePermissions } from "~/server/permissions/permissions.ts";
import { compareSnowflakes } from "~/server/snowflake/snowflake.ts";

export const CHANNEL_INCLUDE = { overwrites: true } satisfies Prisma.ChannelInclude;
export const THREAD_TYPES: number[] = [ChannelType.AnnouncementThread, ChannelType.PublicThread, ChannelType.PrivateThread];
/** A `where` on channel type: the guild's channels without its threads. */
export const NOT_A_THREAD = { notIn: THREAD_TYPES };
export type ChannelRow = Prisma.ChannelGetPayload<{ include: typeof CHANNEL_INCLUDE }>;

/** The overwrite object, with `allow_new` and `deny_new` repeating the whole bit sets beside `allow` and `deny` (spec 9). */
export type OverwriteObject = APIOverwrite & { allow_new: string; deny_new: string };
export type ForumTagObject = APIGuildForumTag;

/** discord-api-types' shapes of the channels a guild holds (threads aside), one per type. */
type GuildChannelShape =
  APITextChannel | APINewsChannel | APIGuildCategoryChannel | APIGuildVoiceChannel | APIGuildStageVoiceChannel | APIGuildForumChannel | APIGuildMediaChannel;

/** Fields every guild channel carries on the wire, where the API types have them optional. */
type GuildChannelCommon = { guild_id: string; position: number; flags: ChannelFlags; parent_id: string | null; permission_overwrites: OverwriteObject[] };

/** The type-specific fields, optional on every channel so readers need not narrow by type first. */
type ChannelFieldsByType = Partial<{
  last_message_id: string | null;
  topic: string | null;
  nsfw: boolean;
  rate_limit_per_user: number;
  bitrate: number;
  user_limit: number;
  rtc_region: string | null;
  video_quality_mode: VideoQualityMode;
  default_auto_archive_duration: ThreadAutoArchiveDuration;
  default_thread_rate_limit_per_user: number;
  available_tags: APIGuildForumTag[];
  default_reaction_emoji: APIGuildForumDefaultReactionEmoji | null;
  default_sort_order: SortOrderType | null;
  default_forum_layout: ForumLayoutType;
}>;

/** A guild channel object: the API type of its channel type, as CHANNEL_CREATE/UPDATE/DELETE and REST send it. */
export type ChannelObject = GuildChannelShape & GuildChannelCommon & ChannelFieldsByType;

type OverwriteRow = Pick<PermissionOverwrite, "targetId" | "type" | "allow" | "deny">;

export function toOverwriteObject(row: OverwriteRow): OverwriteObject {
  const allow = serializePermissions(row.allow);
  const deny = serializePermissions(row.deny);
  return { id: row.targetId, type: row.type === 1 ? 1 : 0, allow, deny, allow_new: allow, deny_new: deny };
}

/** Overwrites in a stable order: roles before members, then by id (@everyone first). */
export function toOverwriteObjects(rows: readonly OverwriteRow[]): OverwriteObject[] {
  return [...rows].sort((a, b) => a.type - b.type || compareSnowflakes(a.targetId, b.targetId)).map(toOverwriteObject);
}

export function parseTags(json: string | null): ForumTagObject[] {
  return json ? (JSON.parse(json) as ForumTagObject[]) : [];
}

function parseDefaultReaction(json: string | null): APIGuildForumDefaultReactionEmoji | null {
  return json ? (JSON.parse(json) as APIGuildForumDefaultReactionEmoji) : null;
}

/**
 * Channel row → the platform's channel object, with the fields its type carries. Optional
 * settings (thread defaults, video quality) appear once set, as on the platform.
 */
export function toChannelObject(channel: ChannelRow): ChannelObject {
  const common = {
    id: channel.id,
    // Every stored channel belongs to a guild: there are no DM channels.
    guild_id: channel.guildId!,
    name: channel.name,
    position: channel.position,
    flags: channel.flags,
    parent_id: channel.parentId,
    permission_overwrites: toOverwriteObjects(channel.overwrites),
  };
  const type = channel.type as GuildChannelShape["type"];
  if (type === ChannelType.GuildCategory) return { ...common, type, parent_id: null } satisfies APIGuildCategoryChannel;
  const messages = { last_message_id: channel.lastMessageId, nsfw: channel.nsfw, rate_limit_per_user: channel.rateLimitPerUser ?? 0 };
  // Stored only from the platform's allowed values (channel.schema.ts).
  const archive = channel.defaultAutoArchiveDuration as ThreadAutoArchiveDuration | null;
  const threadSlowmode = channel.defaultThreadRateLimitPerUser;
  switch (type) {
    case ChannelType.GuildText:
    case ChannelType.GuildAnnouncement:
      return {
        ...common,
        ...messages,
        type,
        topic: channel.topic,
        ...(archive !== null && { default_auto_archive_duration: archive }),
        ...(threadSlowmode !== null && { default_thread_rate_limit_per_user: threadSlowmode }),
      } satisfies APITextChannel | APINewsChannel;
    case ChannelType.GuildVoice:
    case ChannelType.GuildStageVoice:
      return {
        ...common,
        ...messages,
        type,
        bitrate: channel.bitrate ?? 0,
        user_limit: channel.userLimit ?? 0,
        rtc_region: channel.rtcRegion,
        ...(channel.videoQualityMode !== null && { video_quality_mode: channel.videoQualityMode as VideoQualityMode }),
      } satisfies APIGuildVoiceChannel | APIGuildStageVoiceChannel;
    case ChannelType.GuildForum:
    case ChannelType.GuildMedia: {
      const posts = {
        ...common,
        ...messages,
        topic: channel.topic,
        available_tags: parseTags(channel.availableTags),
        default_reaction_emoji: parseDefaultReaction(channel.defaultReactionEmoji),
        default_sort_order: channel.defaultSortOrder as SortOrderType | null,
        default_thread_rate_limit_per_user: threadSlowmode ?? 0,
      };
      if (type === ChannelType.GuildMedia)
        return { ...posts, type, ...(archive !== null && { default_auto_archive_duration: archive }) } satisfies APIGuildMediaChannel;
      const layout = (channel.defaultForumLayout ?? 0) as ForumLayoutType;
      return {
        ...posts,
        type,
        default_forum_layout: layout,
        ...(archive !== null && { default_auto_archive_duration: archive }),
      } satisfies APIGuildForumChannel;
    }
  }
}

/** Channels in the platform's order: by position, ties by id. */
export function sortChannels<C extends { position: number; id: string }>(channels: readonly C[]): C[] {
  return [...channels].sort((a, b) => a.position - b.position || compareSnowflakes(a.id, b.id));
}
