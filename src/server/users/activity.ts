import { LRUCache } from "lru-cache";
import type { Prisma } from "~/generated/prisma/client.ts";
import type { Db } from "~/server/db/client.ts";
import { CACHES } from "~/server/runtime/cache-registry.ts";

/** A user counts as online when they used the API or the dashboard this recently (there are no presences before the gateway). */
const ONLINE_WINDOW_MS = 5 * 60 * 1000;

/** A `where` on a guild's members: those online at `now`. */
export function onlineMembersWhere(guildId: string, now = new Date()) {
  return { guildId, user: { lastActiveAt: { gte: new Date(now.getTime() - ONLINE_WINDOW_MS) } } } satisfies Prisma.MemberWhereInput;
}

// A user's activity is written at most once per TTL, so reads stay cheap.
const lastRecorded = new LRUCache<string, number>({ max: CACHES.activityWrites.max, ttl: CACHES.activityWrites.ttlMs });

/**
 * Notes that a user was active now (an authenticated API call, dashboard use): prune reads
 * it. Written in the background at most once a minute per user and instance.
 */
export function recordActivity(db: Db, userId: string): void {
  if (lastRecorded.has(userId)) return;
  lastRecorded.set(userId, Date.now());
  db.user.updateMany({ where: { id: userId }, data: { lastActiveAt: new Date() } }).catch((error: unknown) => {
    lastRecorded.delete(userId);
    console.error("[activity] could not record", error);
  });
}
