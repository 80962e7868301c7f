import { Redis } from "ioredis";
import { env } from "~/env.ts";
import { createDb, type Db } from "~/server/db/client.ts";
import { createEventFanout } from "~/server/events/fanout.ts";
import { createWritePath } from "~/server/events/write-path.ts";
import { createEventWebhookDestinations, type EventWebhookDestinations } from "~/server/event-webhooks/event-webhook-destination.ts";
import { createRateLimiter, type RateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { StateCache } from "~/server/state/state-cache-store.ts";
import { CACHES } from "./cache-registry.ts";
import type { Runtime } from "./runtime.ts";
import { registerRuntime, unregisterRuntime } from "./runtime-of.ts";

export type RuntimeOptions = {
  /** A database client already open (tests, the bench); by default one for DATABASE_URL. Closed with the runtime either way. */
  db?: Db;
  /** Redis for the limiter and events; by default REDIS_URL, none when unset. */
  redisUrl?: string | null;
  /** A limiter instead of the configured one (tests raise every bucket). */
  limiter?: RateLimiter;
  /** Test mode: event webhooks may go to loopback too; by default GUILDHALL_TEST_MODE. */
  testMode?: boolean;
  /** Where event webhooks may be sent; by default EVENT_WEBHOOK_ALLOWED_HOSTS, with loopback in test mode. */
  eventWebhookDestinations?: EventWebhookDestinations;
};

/** Builds a runtime, in order: database, Redis, limiter, event transport, caches, write path. */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const config = env();
  // First: a mistyped EVENT_WEBHOOK_ALLOWED_HOSTS stops the start before anything is opened.
  const eventWebhookDestinations =
    options.eventWebhookDestinations ??
    createEventWebhookDestinations({ allowedHosts: config.EVENT_WEBHOOK_ALLOWED_HOSTS, allowLoopback: options.testMode ?? config.GUILDHALL_TEST_MODE });
  const db = options.db ?? createDb();
  const redisUrl = options.redisUrl === undefined ? config.REDIS_URL : options.redisUrl;
  const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : null;
  const limiter = options.limiter ?? createRateLimiter({ redis, scale: config.RATE_LIMIT_SCALE });
  const events = createEventFanout({ db, redis });
  const stateCache = new StateCache(db, { guilds: config[CACHES.guilds.setting], tokens: config[CACHES.tokens.setting] }, events.hearingEpoch);
  events.addSink(stateCache);
  const writes = createWritePath(db);
  let closing: Promise<void> | null = null;
  const runtime: Runtime = {
    db,
    redis,
    limiter,
    stateCache,
    writes,
    events,
    eventWebhookDestinations,
    close() {
      closing ??= (async () => {
        await writes.drain();
        await events.close();
        await redis?.quit();
        unregisterRuntime(runtime);
        await db.$disconnect();
      })();
      return closing;
    },
  };
  registerRuntime(runtime);
  return runtime;
}
