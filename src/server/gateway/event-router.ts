// Routing committed events to gateway sessions: the pure decision (route-decision.ts) fed
// with what the shared caches say, and sessions grouped by payload so that each distinct
// payload is one object, serialised once by the caller.
import { GatewayDispatchEvents as E, GatewayIntentBits } from "discord-api-types/v10";
import type { Db } from "~/server/db/client.ts";
import type { StoredEvent } from "~/server/events/event-map.ts";
import { auditLogDenial } from "~/server/guilds/guild-section-rules.ts";
import { toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import type { GuildState } from "~/server/state/guild-state.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { obfuscateChannel } from "./channel-obfuscation.ts";
import { botAccesses, canViewChannel, canViewThread } from "./channel-view.ts";
import type { Dispatch, EventRouter, GatewaySessionView } from "./gateway-types.ts";
import { readGuildCreate } from "./guild-create.ts";
import { routeLobbyEvent } from "./lobby-router.ts";
import { toRoutedLobbyEvent } from "./lobby-route-decision.ts";
import { withoutContent } from "./message-content.ts";
import { isAddressedTo, isOnShard, needsFacts, receives, type Delivery, type RouteFacts } from "./route-decision.ts";
import { hasIntent } from "./intents.ts";
import { toAddressedEvent, toDirectEvent, toRoutedEvent, type ChannelScope, type RoutedEvent } from "./routed-event.ts";

/** Ids bound in one `IN (...)` list, under the 999 values SQLite allows a statement. */
const BOUND_IDS_MAX = 500;

/** The bots (by user id) that can view the event's channel or thread. */
async function viewersOf(db: Db, state: GuildState, scope: ChannelScope, event: RoutedEvent, botUserIds: readonly string[]): Promise<Set<string>> {
  const channels = await state.channels();
  const row = channels.byId.get(scope.id);
  const channel = scope.carried ?? (row && { type: row.type, overwrites: toOverwriteInputs(row.overwrites) });
  let thread: { parentId: string | null; type: number; memberIds: ReadonlySet<string> } | null = null;
  if (!channel) {
    // Not one of the guild's channels: a thread, read with the bots' memberships; a deleted
    // thread is known from the event alone (its memberships went with it).
    const found = await db.channel.findUnique({
      where: { id: scope.id },
      // Past the bound values SQLite takes in one statement, every member is read and matched here.
      select: {
        parentId: true,
        type: true,
        threadMembers: { where: botUserIds.length <= BOUND_IDS_MAX ? { userId: { in: [...botUserIds] } } : {}, select: { userId: true } },
      },
    });
    // Those a thread member change names count as members: a bot removed from a private thread hears its own removal.
    const named = event.threadMemberIds;
    if (found) thread = { parentId: found.parentId, type: found.type, memberIds: new Set([...found.threadMembers.map((m) => m.userId), ...named]) };
    else if (scope.thread) thread = { ...scope.thread, memberIds: new Set(named) };
  }
  const parent = thread?.parentId ? channels.byId.get(thread.parentId) : undefined;
  const viewers = new Set<string>();
  const accesses = await botAccesses(state, botUserIds);
  for (const [botUserId, access] of accesses) {
    const canView = channel
      ? canViewChannel(access, channel, scope.needs)
      : !!thread && !!parent && canViewThread(access, parent, thread.type, thread.memberIds.has(botUserId));
    if (canView) viewers.add(botUserId);
  }
  return viewers;
}

/** The bots (by user id) that may view the guild's audit log, by the rule its REST read applies. */
async function auditLogViewersOf(state: GuildState, botUserIds: readonly string[]): Promise<Set<string>> {
  const accesses = await botAccesses(state, botUserIds);
  return new Set([...accesses].flatMap(([botUserId, access]) => (auditLogDenial(access) ? [] : [botUserId])));
}

/** Facts that refuse nothing: the first pass, before reads tell which sessions the event's permissions leave out. */
const UNREAD: RouteFacts = { canViewChannel: true, canViewAuditLog: true };

/** Sessions sharing one payload object. */
class Groups {
  readonly #byPayload = new Map<unknown, { t: string; sessions: GatewaySessionView[] }>();

  add(t: string, d: unknown, session: GatewaySessionView): void {
    const group = this.#byPayload.get(d);
    if (group) group.sessions.push(session);
    else this.#byPayload.set(d, { t, sessions: [session] });
  }

  get dispatches(): Dispatch[] {
    return [...this.#byPayload].map(([d, { t, sessions }]) => ({ sessions, t, d }));
  }
}

export function createEventRouter({ db }: { db: Db }): EventRouter {
  const guildCreate = (session: Pick<GatewaySessionView, "botUserId" | "largeThreshold" | "intents" | "channelObfuscation">, guildId: string) =>
    readGuildCreate(db, session, guildId);

  /** The payload each delivery sends, one object per distinct payload. */
  async function payloads(event: RoutedEvent, decided: readonly [GatewaySessionView, Delivery][]): Promise<Dispatch[]> {
    const groups = new Groups();
    const blanked = new Map<string, unknown>();
    const created = new Map<string, Promise<unknown>>();
    const deleted = { id: event.guildId };
    // The obfuscated channel is the same for every bot that cannot view it.
    let obfuscated: unknown = null;
    for (const [session, delivery] of decided) {
      if (delivery.kind === "event" && !delivery.blank) groups.add(event.type, event.data, session);
      else if (delivery.kind === "obfuscated") {
        obfuscated ??= obfuscateChannel(event.data as Parameters<typeof obfuscateChannel>[0], event.guildId);
        groups.add(event.type, obfuscated, session);
      } else if (delivery.kind === "event") {
        // Without MESSAGE_CONTENT the payload depends on the app only (its messages, its mentions).
        const key = `${session.botUserId} ${session.applicationId}`;
        if (!blanked.has(key)) blanked.set(key, withoutContent(event.message!, session));
        groups.add(event.type, blanked.get(key), session);
      } else if (delivery.kind === "leave" && delivery.dispatch) groups.add(E.GuildDelete, deleted, session);
      else if (delivery.kind === "join" && delivery.dispatch) {
        const key = `${session.botUserId} ${session.largeThreshold} ${session.intents & GatewayIntentBits.GuildPresences} ${session.channelObfuscation === true}`;
        if (!created.has(key)) created.set(key, guildCreate(session, event.guildId));
        const d = await created.get(key);
        if (d) groups.add(E.GuildCreate, d, session);
      }
    }
    return groups.dispatches;
  }

  return {
    async route(stored: StoredEvent, all: readonly GatewaySessionView[]): Promise<Dispatch[]> {
      const lobbyEvent = toRoutedLobbyEvent(stored);
      if (lobbyEvent) return routeLobbyEvent(db, lobbyEvent, stored.data, all);
      // Game clients' sessions hear their lobbies only.
      const sessions = all.filter((session) => !session.player);
      const addressed = toAddressedEvent(stored);
      if (addressed) {
        const to = sessions.filter((session) => isAddressedTo(addressed, session));
        return to.length > 0 ? [{ sessions: to, t: addressed.type, d: addressed.data }] : [];
      }
      const direct = toDirectEvent(stored);
      if (direct) {
        // DM content reaches the recipients whatever their MESSAGE_CONTENT, as on the platform.
        const recipients = (await stateCache(db).dmRecipientsOf(direct.channelId)) ?? [];
        const to = sessions.filter((session) => recipients.includes(session.botUserId) && hasIntent(session.intents, direct.intent));
        return to.length > 0 ? [{ sessions: to, t: direct.type, d: direct.data }] : [];
      }
      const event = toRoutedEvent(stored);
      if (!event) return [];
      // Joins and leaves change the sessions' guilds before anything is awaited, so events
      // routed one after another see the guilds as their order left them.
      const decided: [GatewaySessionView, Delivery][] = [];
      const toCheck: GatewaySessionView[] = [];
      for (const session of sessions) {
        const delivery = receives(event, session, UNREAD);
        if (delivery.kind === "join") session.guildIds.add(event.guildId);
        if (delivery.kind === "leave") session.guildIds.delete(event.guildId);
        if (delivery.kind === "event" && needsFacts(event)) toCheck.push(session);
        else if (delivery.kind !== "none") decided.push([session, delivery]);
      }
      if (toCheck.length > 0) {
        const state = await stateCache(db).guild(event.guildId, toCheck[0]!.botUserId);
        const botUserIds = [...new Set(toCheck.map((s) => s.botUserId))];
        const none = new Set<string>();
        const viewers = state && event.channel ? await viewersOf(db, state, event.channel, event, botUserIds) : none;
        const auditLogViewers = state && event.type === E.GuildAuditLogEntryCreate ? await auditLogViewersOf(state, botUserIds) : none;
        for (const session of toCheck) {
          const facts = { canViewChannel: viewers.has(session.botUserId), canViewAuditLog: auditLogViewers.has(session.botUserId) };
          const delivery = receives(event, session, facts);
          if (delivery.kind !== "none") decided.push([session, delivery]);
        }
      }
      return payloads(event, decided);
    },

    async guildsOf(session: Pick<GatewaySessionView, "botUserId" | "shard">): Promise<string[]> {
      const rows = await db.member.findMany({ where: { userId: session.botUserId }, select: { guildId: true }, orderBy: { guildId: "asc" } });
      return rows.map((row) => row.guildId).filter((guildId) => isOnShard(guildId, session.shard));
    },

    guildCreate,
  };
}
