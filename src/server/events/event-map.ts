import type {
  APIWebhookEventApplicationAuthorizedData,
  GatewayApplicationCommandPermissionsUpdateDispatchData,
  APIWebhookEventApplicationDeauthorizedData,
  ApplicationWebhookEventType,
  GatewayChannelCreateDispatchData,
  GatewayChannelDeleteDispatchData,
  GatewayChannelPinsUpdateDispatchData,
  GatewayChannelUpdateDispatchData,
  GatewayDispatchEvents,
  GatewayGuildAuditLogEntryCreateDispatchData,
  GatewayGuildBanAddDispatchData,
  GatewayGuildBanRemoveDispatchData,
  GatewayGuildDeleteDispatchData,
  GatewayGuildEmojisUpdateDispatchData,
  GatewayGuildIntegrationsUpdateDispatchData,
  GatewayGuildMemberAddDispatchData,
  GatewayGuildMemberRemoveDispatchData,
  GatewayGuildMemberUpdateDispatchData,
  GatewayGuildRoleCreateDispatchData,
  GatewayGuildRoleDeleteDispatchData,
  GatewayGuildRoleUpdateDispatchData,
  GatewayGuildScheduledEventCreateDispatchData,
  GatewayGuildStickersUpdateDispatchData,
  GatewayIntegrationDeleteDispatchData,
  GatewayInviteCreateDispatchData,
  GatewayInviteDeleteDispatchData,
  GatewayMessageCreateDispatchData,
  GatewayMessageDeleteBulkDispatchData,
  GatewayMessageDeleteDispatchData,
  GatewayMessageReactionAddDispatchData,
  GatewayMessageReactionRemoveAllDispatchData,
  GatewayMessageReactionRemoveDispatchData,
  GatewayMessageReactionRemoveEmojiDispatchData,
  GatewayMessageUpdateDispatchData,
  GatewayPresenceUpdateDispatchData,
  GatewayThreadDeleteDispatchData,
  GatewayThreadMembersUpdateDispatchData,
  GatewayTypingStartDispatchData,
  GatewayUserUpdateDispatchData,
  GatewayVoiceChannelStartTimeUpdateDispatchData,
  GatewayVoiceChannelStatusUpdateDispatchData,
  GatewayVoiceStateUpdateDispatchData,
  GatewayWebhooksUpdateDispatchData,
} from "discord-api-types/v10";
import type { GuildCreateObject, GuildObject } from "~/server/guilds/guild.dto.ts";
import type { IntegrationObject } from "~/server/integrations/integration.dto.ts";
import type { ThreadObject } from "~/server/threads/thread.dto.ts";
import type { LobbyEvents, LobbyMemberObject, LobbyMessageObject, LobbyObject } from "~/server/lobbies/lobby.schema.ts";

/**
 * The gateway dispatches the services emit, with the platform's payload for each: what is
 * stored in the outbox is exactly what the gateway sends. discord-api-types' dispatch data
 * types, except where the platform's objects differ from its types (named in the dto files,
 * listed in docs/wire-differences.md): guilds, threads and integrations.
 */
type GatewayEventMap = {
  [GatewayDispatchEvents.ChannelCreate]: GatewayChannelCreateDispatchData;
  [GatewayDispatchEvents.ChannelUpdate]: GatewayChannelUpdateDispatchData;
  [GatewayDispatchEvents.ChannelDelete]: GatewayChannelDeleteDispatchData;
  [GatewayDispatchEvents.ChannelPinsUpdate]: GatewayChannelPinsUpdateDispatchData;
  [GatewayDispatchEvents.GuildCreate]: GuildCreateObject;
  [GatewayDispatchEvents.GuildUpdate]: GuildObject;
  [GatewayDispatchEvents.GuildDelete]: GatewayGuildDeleteDispatchData;
  [GatewayDispatchEvents.GuildAuditLogEntryCreate]: GatewayGuildAuditLogEntryCreateDispatchData;
  [GatewayDispatchEvents.GuildBanAdd]: GatewayGuildBanAddDispatchData;
  [GatewayDispatchEvents.GuildEmojisUpdate]: GatewayGuildEmojisUpdateDispatchData;
  [GatewayDispatchEvents.GuildStickersUpdate]: GatewayGuildStickersUpdateDispatchData;
  [GatewayDispatchEvents.GuildBanRemove]: GatewayGuildBanRemoveDispatchData;
  [GatewayDispatchEvents.GuildIntegrationsUpdate]: GatewayGuildIntegrationsUpdateDispatchData;
  [GatewayDispatchEvents.GuildMemberAdd]: GatewayGuildMemberAddDispatchData;
  [GatewayDispatchEvents.GuildMemberUpdate]: GatewayGuildMemberUpdateDispatchData;
  [GatewayDispatchEvents.GuildMemberRemove]: GatewayGuildMemberRemoveDispatchData;
  [GatewayDispatchEvents.GuildRoleCreate]: GatewayGuildRoleCreateDispatchData;
  [GatewayDispatchEvents.GuildRoleUpdate]: GatewayGuildRoleUpdateDispatchData;
  [GatewayDispatchEvents.GuildRoleDelete]: GatewayGuildRoleDeleteDispatchData;
  [GatewayDispatchEvents.GuildScheduledEventCreate]: GatewayGuildScheduledEventCreateDispatchData;
  [GatewayDispatchEvents.IntegrationCreate]: IntegrationObject & { guild_id: string };
  [GatewayDispatchEvents.IntegrationDelete]: GatewayIntegrationDeleteDispatchData;
  [GatewayDispatchEvents.InviteCreate]: GatewayInviteCreateDispatchData;
  [GatewayDispatchEvents.InviteDelete]: GatewayInviteDeleteDispatchData;
  [GatewayDispatchEvents.MessageCreate]: GatewayMessageCreateDispatchData;
  [GatewayDispatchEvents.MessageUpdate]: GatewayMessageUpdateDispatchData;
  [GatewayDispatchEvents.MessageDelete]: GatewayMessageDeleteDispatchData;
  [GatewayDispatchEvents.MessageDeleteBulk]: GatewayMessageDeleteBulkDispatchData;
  [GatewayDispatchEvents.MessageReactionAdd]: GatewayMessageReactionAddDispatchData;
  [GatewayDispatchEvents.MessageReactionRemove]: GatewayMessageReactionRemoveDispatchData;
  [GatewayDispatchEvents.MessageReactionRemoveAll]: GatewayMessageReactionRemoveAllDispatchData;
  [GatewayDispatchEvents.MessageReactionRemoveEmoji]: GatewayMessageReactionRemoveEmojiDispatchData;
  [GatewayDispatchEvents.PresenceUpdate]: GatewayPresenceUpdateDispatchData;
  [GatewayDispatchEvents.ThreadCreate]: ThreadObject & { newly_created?: true };
  [GatewayDispatchEvents.ThreadUpdate]: ThreadObject;
  [GatewayDispatchEvents.ThreadDelete]: GatewayThreadDeleteDispatchData;
  [GatewayDispatchEvents.ThreadMembersUpdate]: GatewayThreadMembersUpdateDispatchData;
  [GatewayDispatchEvents.TypingStart]: GatewayTypingStartDispatchData;
  [GatewayDispatchEvents.UserUpdate]: GatewayUserUpdateDispatchData;
  [GatewayDispatchEvents.ApplicationCommandPermissionsUpdate]: GatewayApplicationCommandPermissionsUpdateDispatchData;
  [GatewayDispatchEvents.VoiceChannelStartTimeUpdate]: GatewayVoiceChannelStartTimeUpdateDispatchData;
  [GatewayDispatchEvents.VoiceChannelStatusUpdate]: GatewayVoiceChannelStatusUpdateDispatchData;
  [GatewayDispatchEvents.VoiceStateUpdate]: GatewayVoiceStateUpdateDispatchData;
  [GatewayDispatchEvents.WebhooksUpdate]: GatewayWebhooksUpdateDispatchData;
};

/** Lobby events (spec 2.5; not in discord-api-types): they carry no guild. */
type LobbyEventMap = {
  [LobbyEvents.Create]: LobbyObject;
  [LobbyEvents.Update]: LobbyObject;
  [LobbyEvents.Delete]: { id: string; application_id: string; reason: string };
  [LobbyEvents.MemberAdd]: { lobby_id: string; member: LobbyMemberObject };
  [LobbyEvents.MemberUpdate]: { lobby_id: string; member: LobbyMemberObject };
  [LobbyEvents.MemberRemove]: { lobby_id: string; member: LobbyMemberObject };
  [LobbyEvents.MessageCreate]: LobbyMessageObject;
  [LobbyEvents.MessageUpdate]: LobbyMessageObject;
  [LobbyEvents.MessageDelete]: { id: string; lobby_id: string };
};

/**
 * An application's own events, which no gateway session hears: its outgoing event webhooks
 * deliver them (discord-api-types' webhook event data, with the application they belong to).
 */
type ApplicationEventMap = {
  [ApplicationWebhookEventType.ApplicationAuthorized]: Omit<APIWebhookEventApplicationAuthorizedData, "scopes" | "guild"> & {
    application_id: string;
    /** Scopes the typings' enum lacks (openid, sdk.social_layer) are granted too. */
    scopes: string[];
    guild?: GuildObject;
  };
  [ApplicationWebhookEventType.ApplicationDeauthorized]: APIWebhookEventApplicationDeauthorizedData & { application_id: string };
};

/** Events no client receives: they tell every instance's caches what to drop. */
export const InternalEvents = {
  /** Tokens stopped working. */
  TokensRevoked: "TOKENS_REVOKED",
  /** An application's settings changed. */
  ApplicationUpdated: "APPLICATION_UPDATED",
  /** A DM channel was opened: bots hear of none, but the write is an event like every channel's. */
  DmChannelOpened: "DM_CHANNEL_OPENED",
} as const;

type InternalEventMap = {
  [InternalEvents.TokensRevoked]: { token_ids: string[] };
  [InternalEvents.ApplicationUpdated]: { application_id: string };
  [InternalEvents.DmChannelOpened]: { channel_id: string };
};

/** Every event a change may emit, by name, with its payload. */
export type EventMap = GatewayEventMap & LobbyEventMap & ApplicationEventMap & InternalEventMap;
export type EventType = keyof EventMap;

/** An event as stored in the outbox and delivered to listeners; narrow it by `type`. */
export type StoredEvent<K extends EventType = EventType> = {
  [T in K]: { seq: number; type: T; guildId: string | null; data: EventMap[T]; createdAt: string };
}[K];

/** An outbox row as listeners hear it. runChange's typed emit stored it, so its type names its payload's shape. */
export function storedEventOf(row: { seq: number; type: string; guildId: string | null; data: string; createdAt: Date }): StoredEvent {
  return { seq: row.seq, type: row.type, guildId: row.guildId, data: JSON.parse(row.data) as unknown, createdAt: row.createdAt.toISOString() } as StoredEvent;
}

/**
 * Where each event names its guild: a guild's own events by `id`, the others by `guild_id`;
 * lobby and internal events have none. Listed for every event so a new one must say.
 */
const GUILD_ID_FIELD: Readonly<Record<EventType, "id" | "guild_id" | null>> = {
  CHANNEL_CREATE: "guild_id",
  CHANNEL_UPDATE: "guild_id",
  CHANNEL_DELETE: "guild_id",
  CHANNEL_PINS_UPDATE: "guild_id",
  GUILD_CREATE: "id",
  GUILD_UPDATE: "id",
  GUILD_DELETE: "id",
  GUILD_AUDIT_LOG_ENTRY_CREATE: "guild_id",
  GUILD_BAN_ADD: "guild_id",
  GUILD_EMOJIS_UPDATE: "guild_id",
  GUILD_STICKERS_UPDATE: "guild_id",
  GUILD_BAN_REMOVE: "guild_id",
  GUILD_INTEGRATIONS_UPDATE: "guild_id",
  GUILD_MEMBER_ADD: "guild_id",
  GUILD_MEMBER_UPDATE: "guild_id",
  GUILD_MEMBER_REMOVE: "guild_id",
  GUILD_ROLE_CREATE: "guild_id",
  GUILD_ROLE_UPDATE: "guild_id",
  GUILD_ROLE_DELETE: "guild_id",
  GUILD_SCHEDULED_EVENT_CREATE: "guild_id",
  INTEGRATION_CREATE: "guild_id",
  INTEGRATION_DELETE: "guild_id",
  INVITE_CREATE: "guild_id",
  INVITE_DELETE: "guild_id",
  MESSAGE_CREATE: "guild_id",
  MESSAGE_UPDATE: "guild_id",
  MESSAGE_DELETE: "guild_id",
  MESSAGE_DELETE_BULK: "guild_id",
  MESSAGE_REACTION_ADD: "guild_id",
  MESSAGE_REACTION_REMOVE: "guild_id",
  MESSAGE_REACTION_REMOVE_ALL: "guild_id",
  MESSAGE_REACTION_REMOVE_EMOJI: "guild_id",
  PRESENCE_UPDATE: "guild_id",
  THREAD_CREATE: "guild_id",
  THREAD_UPDATE: "guild_id",
  THREAD_DELETE: "guild_id",
  THREAD_MEMBERS_UPDATE: "guild_id",
  TYPING_START: "guild_id",
  USER_UPDATE: null,
  // Only the application hears of its commands' permissions (routed-event.ts), and no cache holds them.
  APPLICATION_COMMAND_PERMISSIONS_UPDATE: null,
  VOICE_CHANNEL_START_TIME_UPDATE: "guild_id",
  VOICE_CHANNEL_STATUS_UPDATE: "guild_id",
  VOICE_STATE_UPDATE: "guild_id",
  WEBHOOKS_UPDATE: "guild_id",
  LOBBY_CREATE: null,
  LOBBY_UPDATE: null,
  LOBBY_DELETE: null,
  LOBBY_MEMBER_ADD: null,
  LOBBY_MEMBER_UPDATE: null,
  LOBBY_MEMBER_REMOVE: null,
  LOBBY_MESSAGE_CREATE: null,
  LOBBY_MESSAGE_UPDATE: null,
  LOBBY_MESSAGE_DELETE: null,
  APPLICATION_AUTHORIZED: null,
  APPLICATION_DEAUTHORIZED: null,
  TOKENS_REVOKED: null,
  APPLICATION_UPDATED: null,
  DM_CHANNEL_OPENED: null,
};

/** The guild an event belongs to, read from its payload; null for events outside guilds (DMs, lobbies, internal). */
export function guildIdOf<K extends EventType>(type: K, data: EventMap[K]): string | null {
  const field = GUILD_ID_FIELD[type];
  if (!field) return null;
  const id = (data as Partial<Record<"id" | "guild_id", unknown>>)[field];
  return typeof id === "string" ? id : null;
}
