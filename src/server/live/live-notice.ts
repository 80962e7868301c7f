// What the dashboard's live stream tells one viewer of one committed event: a pure function of
// the event and what reads found about the viewer. Guild events pass the gateway's own routing
// (route-decision.ts) for a viewer-shaped session, then the read rule of the section the event
// changes, so a browser never hears of what its user could not read over REST.
import { GatewayDispatchEvents as E, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { StoredEvent } from "~/server/events/event-map.ts";
import { KNOWN_INTENTS } from "~/server/gateway/commands.ts";
import { receives } from "~/server/gateway/route-decision.ts";
import type { RoutedEvent } from "~/server/gateway/routed-event.ts";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";

/** Sent instead of events the stream cannot replay (the outbox dropped them, the viewer fell behind, or their membership changed since): every read is refetched. */
export const RESYNC = "RESYNC";

/** What a guild page hears: the event's name and the ids it is about, never the object itself (pages refetch what they show). */
export type GuildNotice = {
  type: string;
  channelId: string | null;
  userId: string | null;
  /** The event is about the viewer (their own membership): what they may read may have changed. */
  self: boolean;
  /** The viewer left the guild (removed, banned, or the guild is gone): the stream ends after this. */
  gone: boolean;
};

export type LobbyNotice = { type: string; lobbyId: string };

/** What reads found about the viewer when the event arrived. */
export type GuildViewer = {
  userId: string;
  /** Still a member: the guild's reads answer them. */
  isMember: boolean;
  /** Guild sections whose reads answer the viewer, by those services' own rules. */
  reads: { bans: boolean; invites: boolean; integrations: boolean; auditLog: boolean };
  /** Permissions in the event's channel or thread, 0n where it does not show to them; null for guild-wide events. */
  inChannel: bigint | null;
};

const LEAVES: ReadonlySet<string> = new Set([E.GuildMemberRemove, E.GuildBanAdd]);

/** Events whose reads need a guild-level right beyond membership (GET .../bans, GET .../integrations). */
const SECTION_OF: Partial<Record<string, keyof GuildViewer["reads"]>> = {
  [E.GuildBanAdd]: "bans",
  [E.GuildBanRemove]: "bans",
  [E.GuildIntegrationsUpdate]: "integrations",
  [E.IntegrationCreate]: "integrations",
  [E.IntegrationDelete]: "integrations",
};

/** Channel events read by messages' rule (canReadMessages: READ_MESSAGE_HISTORY where the channel shows). */
const MESSAGE_EVENTS: ReadonlySet<string> = new Set([
  E.MessageCreate,
  E.MessageUpdate,
  E.MessageDelete,
  E.MessageDeleteBulk,
  E.ChannelPinsUpdate,
  E.MessageReactionAdd,
  E.MessageReactionRemove,
  E.MessageReactionRemoveAll,
  E.MessageReactionRemoveEmoji,
  E.MessagePollVoteAdd,
  E.MessagePollVoteRemove,
]);

/** Whether the section the event changes answers the viewer's reads, where the event's channel shows to them. */
function readsSection(event: RoutedEvent, viewer: GuildViewer): boolean {
  const section = SECTION_OF[event.type];
  if (section) return viewer.reads[section];
  const inChannel = viewer.inChannel ?? 0n;
  if (MESSAGE_EVENTS.has(event.type)) return hasPermission(inChannel, P.ReadMessageHistory);
  // A channel's webhooks: MANAGE_WEBHOOKS there (webhook-dashboard.service.ts).
  if (event.type === E.WebhooksUpdate) return hasPermission(inChannel, P.ManageWebhooks);
  // The guild's invite list (MANAGE_GUILD or VIEW_AUDIT_LOG), or a channel's (MANAGE_CHANNELS there).
  if (event.type === E.InviteCreate || event.type === E.InviteDelete) return viewer.reads.invites || hasPermission(inChannel, P.ManageChannels);
  return true;
}

function noticeOf(event: RoutedEvent, viewer: GuildViewer, gone: boolean): GuildNotice {
  return { type: event.type, channelId: event.channel?.id ?? null, userId: event.userId, self: event.userId === viewer.userId, gone };
}

/** What one viewer of a guild's pages hears of one of its events: null for nothing. */
export function guildNotice(event: RoutedEvent, viewer: GuildViewer): GuildNotice | null {
  // Their own removal or the guild's end reaches them whatever else holds: nothing follows it.
  if (event.type === E.GuildDelete || (event.userId === viewer.userId && LEAVES.has(event.type))) return noticeOf(event, viewer, true);
  // A signed-in person reads as a session with every intent and message content, on the only shard.
  const session = {
    botUserId: viewer.userId,
    applicationId: "",
    intents: KNOWN_INTENTS,
    shard: [0, 1] as const,
    messageContent: true,
    guildIds: new Set(viewer.isMember ? [event.guildId] : []),
  };
  const canViewChannel = viewer.inChannel !== null && hasPermission(viewer.inChannel, P.ViewChannel);
  if (receives(event, session, { canViewChannel, canViewAuditLog: viewer.reads.auditLog }).kind === "none") return null;
  return readsSection(event, viewer) ? noticeOf(event, viewer, false) : null;
}

const LOBBY_EVENTS: ReadonlySet<string> = new Set(Object.values(LobbyEvents));

/** The lobby a lobby event names. */
function lobbyIdOf(event: StoredEvent): string {
  const data = event.data as { id: string; lobby_id?: string };
  return event.type === LobbyEvents.Create || event.type === LobbyEvents.Update || event.type === LobbyEvents.Delete ? data.id : data.lobby_id!;
}

/**
 * What the owner of an application watching its lobbies hears of one event: its own lobbies'
 * events while they still own it (the Lobbies pages' rule, ownedApplication). `lobbyApplicationId`
 * is the application the event's lobby belongs to, null when it is not a lobby event or is unknown.
 */
export function lobbyNotice(
  event: StoredEvent,
  viewer: { applicationId: string; ownsApplication: boolean },
  lobbyApplicationId: string | null,
): LobbyNotice | null {
  if (!LOBBY_EVENTS.has(event.type) || !viewer.ownsApplication || lobbyApplicationId !== viewer.applicationId) return null;
  return { type: event.type, lobbyId: lobbyIdOf(event) };
}

/** Whether an event is one of the lobby events (the ones lobbyNotice may pass). */
export function isLobbyEvent(event: StoredEvent): boolean {
  return LOBBY_EVENTS.has(event.type);
}
