// Who receives a committed event, and in which form: a pure function of the event, the
// session and what reads found (DESIGN.md "Gateway").
import { GatewayDispatchEvents as E, GatewayIntentBits as I } from "discord-api-types/v10";
import type { GatewaySessionView } from "./gateway-types.ts";
import { asksFor, hasIntent } from "./intents.ts";
import { hidesContent, readsMessageContent } from "./message-content.ts";
import type { AddressedEvent, RoutedEvent } from "./routed-event.ts";

/** The shard a guild's events go to: `(guild_id >> 22) % num_shards`. */
export function shardOf(guildId: string, numShards: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(numShards));
}

/** Whether a guild belongs to a session's shard. */
export function isOnShard(guildId: string, shard: readonly [number, number]): boolean {
  return shardOf(guildId, shard[1]) === shard[0];
}

/**
 * What reads found for one session's bot: whether it can view the event's channel, holding
 * what else the event needs there (MANAGE_CHANNELS for invites), for channel-scoped events; and
 * whether it may view the guild's audit log, for audit entries.
 */
export type RouteFacts = { canViewChannel: boolean; canViewAuditLog: boolean };

/** Whether what a session receives of the event depends on its bot's permissions (`RouteFacts`). */
export function needsFacts(event: RoutedEvent): boolean {
  return event.channel !== null || event.type === E.GuildAuditLogEntryCreate;
}

export type Delivery =
  /** Nothing reaches the session. */
  | { kind: "none" }
  /** The stored payload; `blank` when message content must be emptied for this session. */
  | { kind: "event"; blank: boolean }
  /** The channel event's channel, obfuscated: the bot cannot view it, and its session asked for hidden channels. */
  | { kind: "obfuscated" }
  /** The bot joined the guild: it becomes one of the session's guilds, announced by GUILD_CREATE when the session asks for it. */
  | { kind: "join"; dispatch: boolean }
  /** The bot left, or the guild is gone: the guild leaves the session, announced by GUILD_DELETE when asked for. */
  | { kind: "leave"; dispatch: boolean };

const NONE: Delivery = { kind: "none" };
const OBFUSCATED: Delivery = { kind: "obfuscated" };
const JOINS: ReadonlySet<E> = new Set([E.GuildMemberAdd, E.GuildCreate]);
const LEAVES: ReadonlySet<E> = new Set([E.GuildMemberRemove, E.GuildBanAdd]);
/** Events whose payload is a guild channel: the ones a hidden channel still reaches an obfuscating session by. */
const CHANNEL_OBJECT_EVENTS: ReadonlySet<E> = new Set([E.ChannelCreate, E.ChannelUpdate, E.ChannelDelete]);

type Session = Pick<GatewaySessionView, "botUserId" | "applicationId" | "intents" | "shard" | "messageContent" | "guildIds" | "channelObfuscation">;

/**
 * The bot joining or leaving a guild, which changes the session's guilds whatever else
 * happens: a new member or a new guild's owner on this shard joins; its removal, its ban or
 * the guild's deletion leaves. Null for every other event.
 */
function membershipChange(event: RoutedEvent, session: Session): Delivery | null {
  const isBot = event.userId === session.botUserId;
  const isIn = session.guildIds.has(event.guildId);
  if (isBot && JOINS.has(event.type)) {
    if (isIn || !isOnShard(event.guildId, session.shard)) return NONE;
    return { kind: "join", dispatch: asksFor(E.GuildCreate, session.intents) };
  }
  if ((isBot && LEAVES.has(event.type)) || event.type === E.GuildDelete) {
    return isIn ? { kind: "leave", dispatch: asksFor(E.GuildDelete, session.intents) } : NONE;
  }
  return null;
}

/**
 * Whether the session hears the event at all, before any channel is looked at: its bot is
 * in the guild (on its shard) and its intents ask for the event. The bot's own member
 * updates pass without GUILD_MEMBERS; thread member changes need GUILD_MEMBERS unless they
 * are the bot's own ("Gateway Intents", caveats).
 */
function isInterested(event: RoutedEvent, session: Session): boolean {
  if (!session.guildIds.has(event.guildId)) return false;
  if (event.type === E.GuildMemberUpdate && event.userId === session.botUserId) return true;
  if (!asksFor(event.type, session.intents)) return false;
  if (event.type === E.ThreadMembersUpdate && !hasIntent(session.intents, I.GuildMembers)) {
    return hasIntent(session.intents, I.Guilds) && event.threadMemberIds.includes(session.botUserId);
  }
  return true;
}

/** What one session receives of one event. `facts` matter only where `needsFacts` says so. */
export function receives(event: RoutedEvent, session: Session, facts: RouteFacts): Delivery {
  const change = membershipChange(event, session);
  if (change) return change;
  if (!isInterested(event, session)) return NONE;
  // Audit entries show to those who may read the audit log, as GET .../audit-logs does.
  if (event.type === E.GuildAuditLogEntryCreate && !facts.canViewAuditLog) return NONE;
  if (event.channel && !facts.canViewChannel) {
    // A hidden channel shows, obfuscated, to sessions that asked; its messages, threads,
    // invites and the rest never do.
    return session.channelObfuscation && CHANNEL_OBJECT_EVENTS.has(event.type) ? OBFUSCATED : NONE;
  }
  const { message } = event;
  const blank = message !== null && !readsMessageContent(session) && hidesContent(message, session);
  return { kind: "event", blank };
}

/** Whether `session` is one the addressed event names. */
export function isAddressedTo(event: AddressedEvent, session: Pick<GatewaySessionView, "botUserId" | "applicationId" | "shard" | "player">): boolean {
  if ("userId" in event.to) return session.botUserId === event.to.userId;
  return !session.player && session.applicationId === event.to.applicationId && isOnShard(event.to.guildId, session.shard);
}
