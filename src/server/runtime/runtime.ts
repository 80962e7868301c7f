import { Redis } from "ioredis";
import { env } from "~/env.ts";
import { startBackgroundWork } from "~/server/background.ts";
import { createDb, type Db } from "~/server/db/client.ts";
import { createEventFanout, type EventFanout } from "~/server/events/fanout.ts";
import { createWritePath, type WritePath } from "~/server/events/write-path.ts";
import { createEventWebhookDestinations, type EventWebhookDestinations } from "~/server/event-webhooks/event-webhook-destination.ts";
import type { Gateway } from "~/server/gateway/gateway.ts";
import { createRateLimiter, type RateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { StateCache } from "~/server/state/state-cache.ts";
import { createTwin, type Twin, type TwinOptions } from "~/server/twin/twin.ts";
import { CACHES } from "./cache-registry.ts";
import { registerRuntime, unregisterRuntime } from "./runtime-of.ts";

/**
 * Everything a process holds besides its code, built once by its entry point (server.ts, the
 * Next handlers through runtime/next-runtime.ts, the CLI, the test app) and closed by it.
 * Services reach it through their `ctx.db` (runtime/runtime-of.ts), never a global.
 */
export type Runtime = {
  readonly db: Db;
  /** Shared by the limiter and the event transport; null without REDIS_URL (everything in process). */
  readonly redis: Redis | null;
  readonly limiter: RateLimiter;
  /** Tokens, guilds' state, applications, lobbies, channels' and webhooks' guilds (cache-registry.ts). */
  readonly stateCache: StateCache;
  /** How every change reaches the database (runChange): group commit on SQLite, the pool on PostgreSQL. */
  readonly writes: WritePath;
  /**
   * Committed events: `events.subscribe(listener)` hears every event from any instance, after
   * this instance's caches applied it, in commit order per instance (the gateway's feed).
   */
  readonly events: EventFanout;
  /**
   * The gateway's slot: the API server (http/api-server.ts) builds it on this runtime and sets it
   * here, so close() ends its sessions before the events and the database go. Only the
   * serving process has one.
   */
  gateway?: Gateway;
  /** Test mode (src/server/twin): the twin namespace's state and the process's clock; null when test mode is off. */
  readonly twin: Twin | null;
  /** Where event webhooks may be sent: public addresses, EVENT_WEBHOOK_ALLOWED_HOSTS, and loopback in test mode. */
  readonly eventWebhookDestinations: EventWebhookDestinations;
  /** Stops background work, closes the gateway, waits for events to reach Redis, closes Redis and the database, removes a twin's snapshots. */
  close(): Promise<void>;
};

export type RuntimeOptions = {
  /** A database client already open (tests, the bench); by default one for DATABASE_URL. Closed with the runtime either way. */
  db?: Db;
  /** Redis for the limiter and events; by default REDIS_URL, none when unset. */
  redisUrl?: string | null;
  /** A limiter instead of the configured one (tests raise every bucket). */
  limiter?: RateLimiter;
  /** Starts the background work (servers and Next: yes; the CLI and tests: no). */
  background?: boolean;
  /** Test mode with these options, or off (false); by default GUILDHALL_TEST_MODE with GUILDHALL_TWIN_TOKEN and GUILDHALL_TWIN_REMOTE. */
  twin?: TwinOptions | false;
  /** Where event webhooks may be sent; by default EVENT_WEBHOOK_ALLOWED_HOSTS, with loopback when test mode is on. */
  eventWebhookDestinations?: EventWebhookDestinations;
};

/** Builds a runtime, in order: database, Redis, limiter, event transport, caches, then background work when asked. */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const config = env();
  const twinOptions = options.twin ?? (config.GUILDHALL_TEST_MODE ? { token: config.GUILDHALL_TWIN_TOKEN, allowRemote: config.GUILDHALL_TWIN_REMOTE } : false);
  // First: a mistyped EVENT_WEBHOOK_ALLOWED_HOSTS stops the start before anything is opened.
  const eventWebhookDestinations =
    options.eventWebhookDestinations ??
    createEventWebhookDestinations({ allowedHosts: config.EVENT_WEBHOOK_ALLOWED_HOSTS, allowLoopback: twinOptions !== false });
  const db = options.db ?? createDb();
  const redisUrl = options.redisUrl === undefined ? config.REDIS_URL : options.redisUrl;
  const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : null;
  const limiter = options.limiter ?? createRateLimiter({ redis, scale: config.RATE_LIMIT_SCALE });
  const events = createEventFanout({ db, redis });
  const stateCache = new StateCache(db, { guilds: config[CACHES.guilds.setting], tokens: config[CACHES.tokens.setting] }, events.hearingEpoch);
  events.addSink(stateCache);
  const writes = createWritePath(db);
  let stopBackground: (() => void) | null = null;
  let closing: Promise<void> | null = null;
  const runtime: Runtime = {
    db,
    redis,
    limiter,
    stateCache,
    writes,
    events,
    twin: twinOptions ? createTwin(twinOptions) : null,
    eventWebhookDestinations,
    close() {
      closing ??= (async () => {
        stopBackground?.();
        await runtime.gateway?.close();
        await writes.drain();
        await events.close();
        await redis?.quit();
        unregisterRuntime(runtime);
        await db.$disconnect();
        runtime.twin?.snapshots.discard();
      })();
      return closing;
    },
  };
  registerRuntime(runtime);
  // Last: background work runs changes, which reach this runtime through its database.
  if (options.background) stopBackground = startBackgroundWork(db, events);
  return runtime;
}
