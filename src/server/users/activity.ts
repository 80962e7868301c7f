import { LRUCache } from "lru-cache";
import type { Db } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { CACHES } from "~/server/runtime/cache-registry.ts";
import { CLOCK_TTL } from "~/server/twin/twin-clock.ts";

// A user's activity is written at most once per TTL, so reads stay cheap. The TTL follows a
// test twin's clock: after an advance, the next call is activity at the new time.
const lastRecorded = new LRUCache<string, number>({ max: CACHES.activityWrites.max, ttl: CACHES.activityWrites.ttlMs, ...CLOCK_TTL });

/**
 * Notes that a user was active now (an authenticated API call, dashboard use): prune reads
 * it. Written in the background at most once a minute per user and instance.
 */
export function recordActivity(db: Db, userId: string): void {
  if (lastRecorded.has(userId)) return;
  lastRecorded.set(userId, Date.now());
  const now = new Date();
  runChange({ db, actor: null }, ({ tx }) => tx.user.updateMany({ where: { id: userId }, data: { lastActiveAt: now } })).catch((error: unknown) => {
    lastRecorded.delete(userId);
    console.error("[activity] could not record", error);
  });
}
