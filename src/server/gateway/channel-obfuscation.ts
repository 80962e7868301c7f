// A guild channel as a bot that cannot view it receives it over the gateway, when the session
// opted into obfuscation (spec 6; the platform's "Obfuscated Channels"): the channel exists and
// keeps its place in the list, and nothing else about it shows. The HTTP API never does this.
import { ChannelFlags, OverwriteType, PermissionFlagsBits } from "discord-api-types/v10";
import { toOverwriteObject, type OverwriteObject } from "~/server/channels/channel.dto.ts";

/** The name every obfuscated channel carries. */
export const OBFUSCATED_CHANNEL_NAME = "___hidden___";

/**
 * What stays true of a hidden channel: which channel it is, its type, its guild, where it sits
 * (position and category) and its flags. Everything else the object carries is sensitive and
 * nulled: topic, nsfw, last_message_id, last_pin_timestamp, rate_limit_per_user, bitrate,
 * user_limit, rtc_region, video_quality_mode, the thread defaults (default_auto_archive_duration,
 * default_thread_rate_limit_per_user), the forum settings (default_reaction_emoji,
 * default_sort_order, default_forum_layout) and a voice channel's status; lists (available_tags)
 * are emptied rather than nulled, since clients map them. A field added to channel objects later
 * is therefore hidden unless it is listed here.
 */
const KEPT_FIELDS: ReadonlySet<string> = new Set(["id", "type", "guild_id", "position", "parent_id"]);
const EMPTIED_FIELDS: ReadonlySet<string> = new Set(["available_tags"]);

/** The one overwrite an obfuscated channel shows: @everyone (whose role id is the guild's) denied VIEW_CHANNEL. */
function hiddenOverwrite(guildId: string): OverwriteObject {
  return toOverwriteObject({ targetId: guildId, type: OverwriteType.Role, allow: 0n, deny: PermissionFlagsBits.ViewChannel });
}

type ChannelLike = { id: string; flags?: number; [field: string]: unknown };

/** The obfuscated form of a guild channel object (CHANNEL_CREATE/UPDATE/DELETE, GUILD_CREATE's `channels`). */
export function obfuscateChannel<C extends ChannelLike>(channel: C, guildId: string): C {
  const hidden: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(channel)) {
    if (KEPT_FIELDS.has(field)) hidden[field] = value;
    else hidden[field] = EMPTIED_FIELDS.has(field) ? [] : null;
  }
  hidden.name = OBFUSCATED_CHANNEL_NAME;
  hidden.flags = (channel.flags ?? 0) | ChannelFlags.ChannelObfuscated;
  hidden.permission_overwrites = [hiddenOverwrite(guildId)];
  return hidden as C;
}
