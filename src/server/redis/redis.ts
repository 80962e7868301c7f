import { Redis } from "ioredis";
import { env } from "~/env.ts";

const globalForRedis = globalThis as unknown as { guildhallRedis?: Redis | null };

/** The shared Redis client when REDIS_URL is set; null runs everything in process. */
export function getRedis(): Redis | null {
  if (globalForRedis.guildhallRedis === undefined) {
    const url = env().REDIS_URL;
    globalForRedis.guildhallRedis = url ? new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : null;
  }
  return globalForRedis.guildhallRedis;
}

/** Closes the shared client once pending commands are sent (CLI exit, shutdown). */
export async function closeRedis(): Promise<void> {
  const client = globalForRedis.guildhallRedis;
  globalForRedis.guildhallRedis = undefined;
  await client?.quit();
}
