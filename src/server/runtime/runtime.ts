import type { Redis } from "ioredis";
import type { Db } from "~/server/db/client.ts";
import type { EventFanout } from "~/server/events/fanout.ts";
import type { WritePath } from "~/server/events/write-path.ts";
import type { EventWebhookDestinations } from "~/server/event-webhooks/event-webhook-destination.ts";
import type { RateLimiter } from "~/server/ratelimit/ratelimit.ts";
import type { StateCache } from "~/server/state/state-cache-store.ts";

/**
 * What services need of their process besides the database's rows, built once by its entry
 * point (create-runtime.ts) and reached through `ctx.db` (runtime-of.ts), never a global. Only
 * types are imported here, from modules that reach no service, so no service's import leads
 * back up to what composes it: background work, the gateway and the twin are the entry's
 * (serving/serving.ts).
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
  /** Where event webhooks may be sent: public addresses, EVENT_WEBHOOK_ALLOWED_HOSTS, and loopback in test mode. */
  readonly eventWebhookDestinations: EventWebhookDestinations;
  /** Waits for writes to drain and events to reach Redis, closes Redis and the database. */
  close(): Promise<void>;
};
