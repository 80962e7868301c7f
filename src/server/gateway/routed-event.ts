// What routing needs to know of a committed event, read from its payload. The one place that
// reads `StoredEvent.data`, cast to the platform's dispatch payload types by event type.
import { GatewayDispatchEvents as E, PermissionFlagsBits as P } from "discord-api-types/v10";
import type {
  APIOverwrite,
  GatewayChannelPinsUpdateDispatchData,
  GatewayGuildBanAddDispatchData,
  GatewayGuildCreateDispatchData,
  GatewayGuildMemberAddDispatchData,
  GatewayGuildMemberRemoveDispatchData,
  GatewayGuildMemberUpdateDispatchData,
  GatewayInviteCreateDispatchData,
  GatewayInviteDeleteDispatchData,
  GatewayMessageCreateDispatchData,
  GatewayMessageDeleteBulkDispatchData,
  GatewayMessageDeleteDispatchData,
  GatewayThreadDeleteDispatchData,
  GatewayThreadMembersUpdateDispatchData,
  GatewayTypingStartDispatchData,
  GatewayVoiceChannelStartTimeUpdateDispatchData,
  GatewayVoiceChannelStatusUpdateDispatchData,
  GatewayWebhooksUpdateDispatchData,
} from "discord-api-types/v10";
import type { StoredEvent } from "~/server/events/event-map.ts";
import { toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import type { PermissionOverwriteInput } from "~/server/permissions/permissions.ts";
import { directIntentFor, isDispatchEvent } from "./intents.ts";
import type { MessageEventData } from "./message-content.ts";

/** The channel whose VIEW_CHANNEL decides who hears a channel-scoped event. */
export type ChannelScope = {
  id: string;
  /** What the bot must hold in the channel besides VIEW_CHANNEL: invites show to those who manage the channel. */
  needs?: bigint;
  /** Channel events carry the channel: its overwrites after the change decide (a deleted channel is read nowhere else). */
  carried?: { type: number; overwrites: readonly PermissionOverwriteInput[] };
  /** Thread events carry the thread's parent and type, for a thread already gone. */
  thread?: { parentId: string; type: number };
};

/** A committed guild event as routing sees it. */
export type RoutedEvent = {
  type: E;
  guildId: string;
  /** The payload as stored: exactly what the gateway sends. */
  data: unknown;
  /** Set for channel-scoped events: only those who can view the channel hear them. */
  channel: ChannelScope | null;
  /** The user a member, ban or new-guild event is about (a new guild's owner). */
  userId: string | null;
  /** THREAD_MEMBERS_UPDATE: the users added and removed. */
  threadMemberIds: readonly string[];
  /** MESSAGE_CREATE and MESSAGE_UPDATE: the message, for MESSAGE_CONTENT. */
  message: MessageEventData | null;
};

type ChannelData = { id: string; type: number; permission_overwrites?: APIOverwrite[] };
type ThreadData = GatewayThreadDeleteDispatchData;

function carriedChannel(data: unknown): ChannelScope {
  const channel = data as ChannelData;
  const overwrites = (channel.permission_overwrites ?? []).map((o) => ({ targetId: o.id, type: o.type, allow: BigInt(o.allow), deny: BigInt(o.deny) }));
  return { id: channel.id, carried: { type: channel.type, overwrites: toOverwriteInputs(overwrites) } };
}

function carriedThread(data: unknown): ChannelScope {
  const thread = data as ThreadData;
  return { id: thread.id, ...(thread.parent_id && { thread: { parentId: thread.parent_id, type: thread.type } }) };
}

/** The channel a channel-scoped event names; null for guild-wide events. */
function channelOf(type: E, data: unknown): ChannelScope | null {
  switch (type) {
    case E.ChannelCreate:
    case E.ChannelUpdate:
    case E.ChannelDelete:
      return carriedChannel(data);
    case E.ThreadCreate:
    case E.ThreadUpdate:
    case E.ThreadDelete:
      return carriedThread(data);
    case E.ThreadMembersUpdate:
      return { id: (data as GatewayThreadMembersUpdateDispatchData).id };
    case E.VoiceChannelStatusUpdate:
      return { id: (data as GatewayVoiceChannelStatusUpdateDispatchData).id };
    case E.VoiceChannelStartTimeUpdate:
      return { id: (data as GatewayVoiceChannelStartTimeUpdateDispatchData).id };
    case E.MessageCreate:
    case E.MessageUpdate:
      return { id: (data as GatewayMessageCreateDispatchData).channel_id };
    case E.MessageDelete:
      return { id: (data as GatewayMessageDeleteDispatchData).channel_id };
    case E.MessageDeleteBulk:
      return { id: (data as GatewayMessageDeleteBulkDispatchData).channel_id };
    case E.InviteCreate:
      return { id: (data as GatewayInviteCreateDispatchData).channel_id, needs: P.ManageChannels };
    case E.InviteDelete:
      return { id: (data as GatewayInviteDeleteDispatchData).channel_id, needs: P.ManageChannels };
    case E.WebhooksUpdate:
      return { id: (data as GatewayWebhooksUpdateDispatchData).channel_id };
    case E.ChannelPinsUpdate:
      return { id: (data as GatewayChannelPinsUpdateDispatchData).channel_id };
    case E.TypingStart:
    case E.MessageReactionAdd:
    case E.MessageReactionRemove:
    case E.MessageReactionRemoveAll:
    case E.MessageReactionRemoveEmoji:
    case E.MessagePollVoteAdd:
    case E.MessagePollVoteRemove:
      return { id: (data as GatewayTypingStartDispatchData).channel_id };
    default:
      return null;
  }
}

function userOf(type: E, data: unknown): string | null {
  switch (type) {
    case E.GuildMemberAdd:
      return (data as GatewayGuildMemberAddDispatchData).user.id;
    case E.GuildMemberUpdate:
      return (data as GatewayGuildMemberUpdateDispatchData).user.id;
    case E.GuildMemberRemove:
      return (data as GatewayGuildMemberRemoveDispatchData).user.id;
    case E.GuildBanAdd:
      return (data as GatewayGuildBanAddDispatchData).user.id;
    case E.GuildCreate:
      return (data as GatewayGuildCreateDispatchData).owner_id;
    default:
      return null;
  }
}

/** The event as routing sees it; null for events no bot session hears (outside guilds, lobby, internal). */
export function toRoutedEvent(event: StoredEvent): RoutedEvent | null {
  if (!event.guildId || !isDispatchEvent(event.type)) return null;
  const { type, data } = event;
  const members = type === E.ThreadMembersUpdate ? data : null;
  return {
    type,
    guildId: event.guildId,
    data,
    channel: channelOf(type, data),
    userId: userOf(type, data),
    threadMemberIds: members ? [...(members.added_members ?? []).map((m) => m.user_id!), ...(members.removed_member_ids ?? [])] : [],
    message: type === E.MessageCreate || type === E.MessageUpdate ? data : null,
  };
}

/** An event of a DM channel, for its recipients' sessions that hold `intent`. */
export type DirectEvent = { type: E; data: unknown; channelId: string; intent: number };

/** A DM channel's event (no guild, one of the DM events); null for any other. */
export function toDirectEvent(event: StoredEvent): DirectEvent | null {
  if (event.guildId || !isDispatchEvent(event.type)) return null;
  const intent = directIntentFor(event.type);
  if (intent === null) return null;
  return { type: event.type, data: event.data, channelId: (event.data as GatewayTypingStartDispatchData).channel_id, intent };
}

/**
 * An event outside the guilds' broadcast, for the sessions it names: a user's own, or an
 * application's bot sessions on the shard of the guild it is about.
 */
export type AddressedEvent = { type: E; data: unknown; to: { userId: string } | { applicationId: string; guildId: string } };

/**
 * Who an event outside the broadcast goes to: USER_UPDATE to the user's own sessions, and
 * APPLICATION_COMMAND_PERMISSIONS_UPDATE to the application's alone; null for any other event.
 */
export function toAddressedEvent(event: StoredEvent): AddressedEvent | null {
  if (event.guildId) return null;
  switch (event.type) {
    case E.UserUpdate:
      return { type: event.type, data: event.data, to: { userId: event.data.id } };
    case E.ApplicationCommandPermissionsUpdate:
      return { type: event.type, data: event.data, to: { applicationId: event.data.application_id, guildId: event.data.guild_id } };
    default:
      return null;
  }
}
