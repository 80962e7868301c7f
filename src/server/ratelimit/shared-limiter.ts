import { env } from "~/env.ts";
import { getRedis } from "~/server/redis/redis.ts";
import { createRateLimiter, type RateLimiter } from "./ratelimit.ts";

const globalForLimiter = globalThis as unknown as { guildhallRateLimiter?: RateLimiter };

/** The process-wide rate limiter: in memory, or shared through Redis when REDIS_URL is set. */
export function getRateLimiter(): RateLimiter {
  globalForLimiter.guildhallRateLimiter ??= createRateLimiter({ redis: getRedis(), scale: env().RATE_LIMIT_SCALE });
  return globalForLimiter.guildhallRateLimiter;
}
