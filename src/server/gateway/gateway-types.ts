import type { StoredEvent } from "~/server/events/event-map.ts";

/**
 * What the event router knows of one gateway session: who it is, what it asked for and which
 * guilds it is told about. Sessions hold no copy of guild state; what a guild looks like is
 * read from the shared caches when an event is routed.
 */
export type GatewaySessionView = {
  readonly sessionId: string;
  readonly applicationId: string;
  /** The bot of a bot session; a game client's session holds its player here (see `player`). */
  readonly botUserId: string;
  /**
   * Set for a game client's session (a user's Bearer token with sdk.social_layer): it hears
   * the events of its player's lobbies and nothing of guilds. Bot sessions have none.
   */
  readonly player?: PlayerScope;
  /** The intents bitfield sent in IDENTIFY. */
  readonly intents: number;
  /** [shard_id, num_shards]. */
  readonly shard: readonly [number, number];
  /** Whether the application held MESSAGE_CONTENT when the session identified. */
  readonly messageContent: boolean;
  /**
   * Whether the session receives channels its bot cannot view, obfuscated: IDENTIFY's
   * CHANNEL_OBFUSCATION capability, or the application's setting. Absent means no (viewers that
   * are not bots never get hidden channels).
   */
  readonly channelObfuscation?: boolean;
  /** IDENTIFY's large_threshold (50..250): members sent in a GUILD_CREATE. */
  readonly largeThreshold: number;
  /** The bot's guilds on this session's shard; routing adds and removes guilds as the bot joins and leaves. */
  readonly guildIds: Set<string>;
};

/** What a game client's session hears: its player's lobbies of the session's application. */
type PlayerScope = {
  readonly userId: string;
  /** Routing adds and removes lobbies as the player joins and leaves them, in outbox order. */
  readonly lobbyIds: Set<string>;
};

/** One dispatch to send: the same `data` object goes to every session listed, so it is serialised once. */
export type Dispatch = { sessions: readonly GatewaySessionView[]; t: string; d: unknown };

/** Decides who receives a committed event and with which payload. */
export type EventRouter = {
  /** The dispatches one committed event becomes for these sessions (none when nobody may see it). */
  route(event: StoredEvent, sessions: readonly GatewaySessionView[]): Promise<Dispatch[]>;
  /** The guilds a session is told about at READY: the bot's guilds on its shard. */
  guildsOf(session: Pick<GatewaySessionView, "botUserId" | "shard">): Promise<string[]>;
  /** The GUILD_CREATE payload for a guild the session's bot is in, or null when it is not (any more). */
  guildCreate(session: GatewaySessionView, guildId: string): Promise<unknown>;
};
