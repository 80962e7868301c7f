import { env } from "~/env.ts";
import { getDb } from "~/server/db/client.ts";
import { createRateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { getRedis } from "~/server/redis/redis.ts";
import { createDispatcher, type Dispatcher } from "./dispatch.ts";
import { ROUTES } from "./routes.ts";

const globalForRest = globalThis as unknown as { guildhallDispatcher?: Dispatcher };

/** The process-wide REST dispatcher on the configured database and rate-limit store. */
export function getDispatcher(): Dispatcher {
  globalForRest.guildhallDispatcher ??= createDispatcher({
    db: getDb(),
    limiter: createRateLimiter({ redis: getRedis(), scale: env().RATE_LIMIT_SCALE }),
    routes: ROUTES,
  });
  return globalForRest.guildhallDispatcher;
}
