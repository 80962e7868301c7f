/**
 * Every cache in the process: what it holds, its bound, and what keeps it true. The caches
 * read their bounds from here, so this file cannot drift from them; cache-registry.test.ts
 * fails when an LRUCache under src/server does not take its bound from an entry.
 *
 * How an entry is kept true:
 * - "events": committed events drop it (state/state-cache-store.ts `apply`, on every instance
 *   through the event fan-out, here before the change's response); a lost Redis
 *   subscription drops everything (`reset`). `how` names the events and any in-place patch.
 * - "guild state": held by a cached guild's state, so it goes when an event drops the guild.
 * - "ttl": may be stale for at most `ttlMs`; used only where that staleness is harmless.
 * - "immutable": what it maps never changes, so it only needs a bound.
 */
export type CacheSpec = {
  /** The file that constructs it, relative to the repository. */
  file: string;
  holds: string;
  keptTrue: "events" | "guild state" | "ttl" | "immutable";
  how: string;
  /** Entries at most; `setting` names the environment variable that sets it instead. */
  max?: number;
  setting?: "GUILD_CACHE_MAX" | "TOKEN_CACHE_MAX";
  /** A budget in `sizeUnit` instead of entries. */
  maxSize?: number;
  sizeUnit?: string;
  ttlMs?: number;
};

export const CACHES = {
  guilds: {
    file: "src/server/state/state-cache-store.ts",
    holds: "guild id → the guild's state (row, roles, channels with overwrites, members' access)",
    setting: "GUILD_CACHE_MAX",
    keptTrue: "events",
    how: "any event naming the guild drops it, except MESSAGE_UPDATE/DELETE/DELETE_BULK (change nothing it holds); MESSAGE_CREATE outside threads patches the channel's last message id in place",
  },
  tokens: {
    file: "src/server/state/state-cache-store.ts",
    holds: "token id → kind, secret hash, expiry, actor",
    setting: "TOKEN_CACHE_MAX",
    keptTrue: "events",
    how: "TOKENS_REVOKED drops the tokens it names (reset, revoke, CLI token revoke)",
  },
  applications: {
    file: "src/server/state/state-cache-store.ts",
    holds: "application id → flags, bot user, rate limits lifted (one per bot token at most)",
    setting: "TOKEN_CACHE_MAX",
    keptTrue: "events",
    how: "APPLICATION_UPDATED drops the application",
  },
  lobbies: {
    file: "src/server/state/state-cache-store.ts",
    holds: "lobby id → the lobby row and its members, frozen",
    max: 10_000,
    keptTrue: "events",
    how: "LOBBY_CREATE/UPDATE/DELETE and LOBBY_MEMBER_ADD/UPDATE/REMOVE drop it; the lobby services forget it when they move its idle clock (forgetLobby); messages leave it",
  },
  channelGuilds: {
    file: "src/server/state/state-cache-store.ts",
    holds: "channel id → guild id",
    max: 50_000,
    keptTrue: "immutable",
    how: "a channel never changes guild",
  },
  dmRecipients: {
    file: "src/server/state/state-cache-store.ts",
    holds: "DM channel id → its two recipients' user ids",
    max: 50_000,
    keptTrue: "immutable",
    how: "a DM channel's recipients never change",
  },
  webhookGuilds: {
    file: "src/server/state/state-cache-store.ts",
    holds: "webhook id → guild id (the webhook itself is read from its guild's state)",
    max: 50_000,
    keptTrue: "immutable",
    how: "a webhook moves between one guild's channels only",
  },
  guildMembers: {
    file: "src/server/state/guild-state.ts",
    holds: "per cached guild: user id → the member's roles and timeout (a Map kept in recency order)",
    max: 1000,
    keptTrue: "guild state",
    how: "member, role and guild events name the guild and drop its state with these",
  },
  guildWebhooks: {
    file: "src/server/state/guild-state.ts",
    holds: "per cached guild: webhook id → its row, for execution by token",
    max: 200,
    keptTrue: "guild state",
    how: "WEBHOOKS_UPDATE names the guild and drops its state with these",
  },
  guildAnswers: {
    file: "src/server/state/guild-state.ts",
    holds: "answers read from a cached guild's rows (member objects, member list pages, invite answers, widget images), keyed by the state's id",
    maxSize: 50_000,
    sizeUnit: "member objects (a page of 100 counts 100; binary answers count 700 bytes as one)",
    keptTrue: "guild state",
    how: "a newer state of the guild never sees an older state's answers, which age out; answers that depend on the clock carry their own TTL (invite counts: 30 s), aged by a test twin's clock (twin-clock.ts CLOCK_TTL)",
  },
  inviteGuilds: {
    file: "src/server/invites/invite.service.ts",
    holds: "invite code → guild id (the answer itself is kept with the guild's state)",
    max: 100_000,
    keptTrue: "immutable",
    how: "fixed for an invite's life; a vanity code that moved is looked up afresh when its guild no longer answers it",
  },
  intentsReach: {
    file: "src/server/applications/intents.ts",
    holds: "bot user id → distinct users across its guilds (privileged intent review size)",
    max: 10_000,
    ttlMs: 60_000,
    keptTrue: "ttl",
    how: "a count over every guild of the bot: the platform also reviews it periodically, not per call",
  },
  activityWrites: {
    file: "src/server/users/activity.ts",
    holds: "user id → when its activity was last written (a write throttle, not a read cache)",
    max: 100_000,
    ttlMs: 60_000,
    keptTrue: "ttl",
    how: "activity is written at most once a TTL per user and instance; the TTL follows a test twin's clock",
  },
  lobbyReadActivity: {
    file: "src/server/lobbies/lobby-access.ts",
    holds: "lobby id → its read was noted as activity (a write throttle)",
    max: 10_000,
    ttlMs: 1000,
    keptTrue: "ttl",
    how: "a game's reads move the lobby's idle clock at most once a TTL; the TTL follows a test twin's clock",
  },
  providerKeySets: {
    file: "src/server/partner-sdk/provider-key-sets.ts",
    holds: "an identity provider's jwks_uri → its key set (jose's remote JWKS) and when it was fetched",
    max: 1000,
    ttlMs: 600_000,
    keptTrue: "ttl",
    how: "fetched again before use once older than the TTL, and for a kid it does not hold once 30 s passed since the last fetch (jose's cacheMaxAge and cooldownDuration); both measured by pacing time (twin-clock.ts), so a test twin's frozen or restored clock does not hold a rotated key out",
  },
  imageVariants: {
    file: "src/server/images/image-variant.ts",
    holds: "stored image and size → the converted bytes",
    maxSize: 32 * 1024 * 1024,
    sizeUnit: "bytes",
    keptTrue: "immutable",
    how: "the key names the stored file by its content hash",
  },
  sqliteStatements: {
    file: "src/server/db/sqlite-statements.ts",
    holds: "SQL text → a prepared better-sqlite3 statement and its columns (a Map in recency order)",
    max: 500,
    keptTrue: "immutable",
    how: "the schema does not change under a running process",
  },
  wireJson: {
    file: "src/server/state/wire-json.ts",
    holds: "frozen wire object → its JSON text (a WeakMap)",
    keptTrue: "immutable",
    how: "its keys are frozen; an entry lives exactly as long as its object, which the caches above hold",
  },
  restBucketHashes: {
    file: "src/server/rest/dispatch.ts",
    holds: "rate-limit bucket name → its opaque hash (a Map)",
    keptTrue: "immutable",
    how: "bounded by the route table's bucket names",
  },
} as const satisfies Record<string, CacheSpec>;
