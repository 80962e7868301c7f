import { GatewayDispatchEvents } from "discord-api-types/v10";
import { LRUCache } from "lru-cache";
import type { Lobby, LobbyMember, Webhook } from "~/generated/prisma/client.ts";
import type { Actor } from "~/server/auth/actor.ts";
import type { Db } from "~/server/db/client.ts";
import { InternalEvents, type EventType, type StoredEvent } from "~/server/events/event-map.ts";
import type { EventSink } from "~/server/events/fanout.ts";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { CACHES } from "~/server/runtime/cache-registry.ts";
import { readGuildState, type GuildState } from "./guild-state.ts";

/** An application's settings as hot requests need them. */
export type ApplicationRecord = { id: string; flags: number; botUserId: string; rateLimitsLifted: boolean };

/** A lobby with its members as read, frozen; `expiresAt` is when it was last seen to shut down (activity moves it later). */
export type LobbyRecord = { row: Readonly<Lobby>; members: readonly Readonly<LobbyMember>[] };

/** Lobby events that change a lobby, and where they name it. */
const LOBBY_EVENT_IDS: Readonly<Partial<Record<EventType, "id" | "lobby_id">>> = {
  [LobbyEvents.Create]: "id",
  [LobbyEvents.Update]: "id",
  [LobbyEvents.Delete]: "id",
  [LobbyEvents.MemberAdd]: "lobby_id",
  [LobbyEvents.MemberUpdate]: "lobby_id",
  [LobbyEvents.MemberRemove]: "lobby_id",
};

/** A token as authentication needs it; the actor object is shared by every request made with it. */
export type TokenRecord = {
  kind: "bot" | "bearer";
  secretHash: Buffer;
  expiresAt: Date | null;
  isRevoked: boolean;
  /** The holder's platform ban: while it stands the token does not authenticate (a ban or its lift drops the record). */
  bannedUntil: Date | null;
  actor: Actor;
};

/** Message events that change nothing a guild's state holds but a channel's last message id. */
const MESSAGE_EVENTS: ReadonlySet<EventType> = new Set([
  GatewayDispatchEvents.MessageUpdate,
  GatewayDispatchEvents.MessageDelete,
  GatewayDispatchEvents.MessageDeleteBulk,
]);

type Load<V> = { promise: Promise<V | null>; isStale: boolean };

/**
 * What hot requests read, kept in process: tokens, guilds' state, channels' guilds. The one
 * invalidation rule: committed events drop what they name (a guild id drops that guild,
 * TOKENS_REVOKED drops tokens), here before the change's response and on every other
 * instance through the event fan-out. Nothing else removes entries except the size bounds.
 */
export class StateCache implements EventSink {
  readonly #db: Db;
  readonly #guilds: LRUCache<string, GuildState>;
  readonly #tokens: LRUCache<string, TokenRecord>;
  readonly #applications: LRUCache<string, ApplicationRecord>;
  readonly #channelGuilds = new LRUCache<string, string>({ max: CACHES.channelGuilds.max });
  readonly #dmRecipients = new LRUCache<string, readonly string[]>({ max: CACHES.dmRecipients.max });
  readonly #webhookGuilds = new LRUCache<string, string>({ max: CACHES.webhookGuilds.max });
  readonly #lobbies = new LRUCache<string, LobbyRecord>({ max: CACHES.lobbies.max });
  readonly #hearingEpoch: () => number | null;
  // Reads under way, by key; an event marks them stale so a read that began before a
  // change cannot put the old state back after the change dropped it.
  readonly #loading = new Map<string, Load<unknown>>();

  /**
   * `limits` are the configured bounds (CACHES.guilds, CACHES.tokens); `hearingEpoch` is the
   * event fan-out's (events/fanout.ts): what is read is kept only while every event is heard.
   */
  constructor(db: Db, limits: { guilds: number; tokens: number }, hearingEpoch: () => number | null) {
    this.#db = db;
    this.#hearingEpoch = hearingEpoch;
    this.#guilds = new LRUCache({ max: limits.guilds /* CACHES.guilds */ });
    this.#tokens = new LRUCache({ max: limits.tokens /* CACHES.tokens */ });
    this.#applications = new LRUCache({ max: limits.tokens /* CACHES.applications */ });
  }

  /** The guild's state, or null when there is no such guild; a read also loads `forUserId`'s access. */
  guild(guildId: string, forUserId: string | null = null): Promise<GuildState | null> {
    return this.#read(this.#guilds, `g${guildId}`, guildId, () => readGuildState(this.#db, guildId, forUserId));
  }

  /** A token by id through `load` on a miss; null (not cached) when there is none. */
  token(tokenId: string, load: () => Promise<TokenRecord | null>): Promise<TokenRecord | null> {
    return this.#read(this.#tokens, `t${tokenId}`, tokenId, load);
  }

  /** An application's settings; null when there is no such application. */
  application(applicationId: string): Promise<ApplicationRecord | null> {
    return this.#read(this.#applications, `a${applicationId}`, applicationId, () =>
      this.#db.application.findUnique({ where: { id: applicationId }, select: { id: true, flags: true, botUserId: true, rateLimitsLifted: true } }),
    );
  }

  /** The guild a channel belongs to; null for an unknown channel or one outside guilds. */
  async guildIdOfChannel(channelId: string): Promise<string | null> {
    const known = this.#channelGuilds.get(channelId);
    if (known) return known;
    const row = await this.#db.channel.findUnique({ where: { id: channelId }, select: { guildId: true } });
    if (row?.guildId) this.#channelGuilds.set(channelId, row.guildId);
    return row?.guildId ?? null;
  }

  /** A DM channel's two recipients; null for a channel that is no DM (or does not exist). */
  async dmRecipientsOf(channelId: string): Promise<readonly string[] | null> {
    const known = this.#dmRecipients.get(channelId);
    if (known) return known;
    const rows = await this.#db.channelRecipient.findMany({ where: { channelId }, select: { userId: true } });
    if (rows.length === 0) return null;
    const ids = Object.freeze(rows.map((row) => row.userId));
    this.#dmRecipients.set(channelId, ids);
    return ids;
  }

  /** A webhook by id, from its guild's state once its guild is known; null when there is none. */
  async webhook(webhookId: string): Promise<Webhook | null> {
    const guildId = this.#webhookGuilds.get(webhookId);
    const state = guildId ? await this.guild(guildId) : null;
    if (state) return state.webhook(webhookId);
    const row = await this.#db.webhook.findUnique({ where: { id: webhookId } });
    if (row?.guildId) this.#webhookGuilds.set(webhookId, row.guildId);
    return row;
  }

  /**
   * A lobby with its members, whatever its application or expiry (lobbies/lobby-access.ts
   * decides); null when there is none. Lobby events drop it; messages leave it.
   */
  lobby(lobbyId: string): Promise<LobbyRecord | null> {
    return this.#read(this.#lobbies, `l${lobbyId}`, lobbyId, async () => {
      const row = await this.#db.lobby.findUnique({ where: { id: lobbyId }, include: { members: { orderBy: [{ joinedAt: "asc" }, { userId: "asc" }] } } });
      if (!row) return null;
      const { members, ...lobby } = row;
      return Object.freeze({ row: Object.freeze(lobby), members: Object.freeze(members.map((member) => Object.freeze(member))) });
    });
  }

  /** Forgets a lobby read before its idle clock moved, so the next read sees the clock as it is. */
  forgetLobby(lobbyId: string): void {
    this.#drop(this.#lobbies, `l${lobbyId}`, lobbyId);
  }

  apply(event: StoredEvent): void {
    const lobbyField = LOBBY_EVENT_IDS[event.type];
    if (lobbyField) {
      const id = (event.data as Record<string, unknown>)[lobbyField];
      if (typeof id === "string") this.forgetLobby(id);
    }
    if (event.guildId && !this.#keepsGuild(event)) this.#drop(this.#guilds, `g${event.guildId}`, event.guildId);
    if (event.type === InternalEvents.TokensRevoked) {
      for (const id of event.data.token_ids) this.#drop(this.#tokens, `t${id}`, id);
    }
    if (event.type === InternalEvents.ApplicationUpdated) {
      const id = event.data.application_id;
      this.#drop(this.#applications, `a${id}`, id);
    }
  }

  /**
   * Whether a presence or message event leaves the guild's state as it is (edits and deletes) or only
   * moves a channel's last message id in it (a new message outside threads). Reads of the
   * state under way are still marked stale, as they may predate the message.
   */
  #keepsGuild(event: StoredEvent): boolean {
    // A guild's state holds no presences or audit entries.
    if (event.type === GatewayDispatchEvents.PresenceUpdate || event.type === GatewayDispatchEvents.GuildAuditLogEntryCreate) return true;
    const isCreate = event.type === GatewayDispatchEvents.MessageCreate;
    if (!isCreate && !MESSAGE_EVENTS.has(event.type)) return false;
    const state = this.#guilds.peek(event.guildId!);
    if (isCreate && state && !state.moveLastMessage(event.data.channel_id, event.data.id)) return false;
    const under = this.#loading.get(`g${event.guildId}`);
    if (under) {
      under.isStale = true;
      this.#loading.delete(`g${event.guildId}`);
    }
    return true;
  }

  reset(): void {
    this.#guilds.clear();
    this.#tokens.clear();
    this.#applications.clear();
    this.#lobbies.clear();
    for (const load of this.#loading.values()) load.isStale = true;
    this.#loading.clear();
  }

  /**
   * Drops everything, what never goes stale too (channels' and webhooks' guilds): the
   * database was replaced under it (a test twin's restore), so ids may name other rows now.
   */
  clear(): void {
    this.reset();
    this.#channelGuilds.clear();
    this.#dmRecipients.clear();
    this.#webhookGuilds.clear();
  }

  /** How much is cached now. */
  get size(): { guilds: number; tokens: number } {
    return { guilds: this.#guilds.size, tokens: this.#tokens.size };
  }

  async #read<V extends object>(cache: LRUCache<string, V>, key: string, id: string, load: () => Promise<V | null>): Promise<V | null> {
    const hit = cache.get(id);
    if (hit) return hit;
    const under = this.#loading.get(key) as Load<V> | undefined;
    if (under) return under.promise;
    // Kept only if this instance heard every event for the whole read (events/fanout.ts).
    const epoch = this.#hearingEpoch();
    const entry: Load<V> = { promise: load(), isStale: false };
    this.#loading.set(key, entry);
    try {
      const value = await entry.promise;
      if (value && !entry.isStale && epoch !== null && this.#hearingEpoch() === epoch) cache.set(id, value);
      return value;
    } finally {
      if (this.#loading.get(key) === entry) this.#loading.delete(key);
    }
  }

  #drop<V extends object>(cache: LRUCache<string, V>, key: string, id: string): void {
    cache.delete(id);
    const under = this.#loading.get(key);
    if (under) {
      under.isStale = true;
      this.#loading.delete(key);
    }
  }
}
