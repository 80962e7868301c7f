import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Redis } from "ioredis";

export type BucketSpec = {
  points: number;
  durationSeconds: number;
  /**
   * Also shared by every caller of one resource (a webhook's executions): counted under the key
   * the route's guard answers, for calls that passed it, after each caller's own count.
   */
  perResource?: boolean;
};

// The development rate limits of spec 8: per application, whoever of its users calls, until
// an operator grants the application production limits (`app limits --lift`).
const TWO_HOURS = 7200;
const DEVELOPMENT = { points: 100, durationSeconds: TWO_HOURS };

/**
 * Named buckets. A route names one (default: its own per-route bucket sized DEFAULT_ROUTE);
 * "global" applies to every request of a principal. Endpoint-specific limits are rows here.
 */
export const BUCKETS = {
  global: { points: 50, durationSeconds: 1 },
  route: { points: 25, durationSeconds: 1 },
  /** Dashboard password sign-ins per e-mail address from one client address: someone else's attempts never lock its owner out. */
  signin: { points: 10, durationSeconds: 60 },
  /** Dashboard password sign-ins per client address, whatever the e-mail addresses tried. */
  signinClient: { points: 60, durationSeconds: 60 },
  /** Password checks (scrypt hashes) of every sign-in together: the CPU and threads sign-in may take. */
  signinHashes: { points: 5, durationSeconds: 1 },
  /** Executions of one webhook (JSON, chat and code-host formats), the platform's 5 per 2 seconds. */
  webhook: { points: 5, durationSeconds: 2, perResource: true },
  /** Messages webhooks post into one channel, whichever webhook: the platform's 30 per minute. */
  webhookChannel: { points: 30, durationSeconds: 60, perResource: true },
  /** Publications in one announcement channel, whoever publishes: the platform's 10 per hour. */
  crosspost: { points: 10, durationSeconds: 3600, perResource: true },
  /** Gateway requests for every member of a guild (op 8, empty query, limit 0), per bot and guild: the platform's 1 per 30 seconds. */
  requestGuildMembers: { points: 1, durationSeconds: 30 },
  devLobbyCreate: DEVELOPMENT,
  devLobbyJoin: DEVELOPMENT,
  devLobbyModify: DEVELOPMENT,
  devLobbyMemberPut: DEVELOPMENT,
  devLobbyMemberDelete: DEVELOPMENT,
  devLobbyBulk: DEVELOPMENT,
  devLobbyInviteSelf: DEVELOPMENT,
  devLobbyInviteUser: DEVELOPMENT,
  devLobbyChannelLink: { points: 20, durationSeconds: TWO_HOURS },
  devLobbyMessage: DEVELOPMENT,
} satisfies Record<string, BucketSpec>;

export type BucketName = keyof typeof BUCKETS;

export type RateLimitState = {
  limit: number;
  remaining: number;
  resetAfterMs: number;
  bucket: string;
  limited: boolean;
  global: boolean;
};

export type RateLimiter = {
  /** Spends one point of `bucket` for `key` (principal plus major parameter). */
  consume(bucket: BucketName, bucketId: string, key: string, isGlobal?: boolean): Promise<RateLimitState>;
  /** Forgets every count kept in this process (a test twin's restore); counts in Redis are every instance's and stay. */
  reset(): void;
};

/** In memory by default; shared across instances through Redis when a client is given. */
export function createRateLimiter(options: { redis?: Redis | null; scale?: number } = {}): RateLimiter {
  const scale = options.scale && options.scale > 0 ? options.scale : 1;
  const limiters = new Map<BucketName, RateLimiterAbstract>();

  function limiterFor(name: BucketName): RateLimiterAbstract {
    let limiter = limiters.get(name);
    if (!limiter) {
      const spec = BUCKETS[name];
      const opts = { keyPrefix: `guildhall:rl:${name}`, points: Math.max(1, Math.round(spec.points * scale)), duration: spec.durationSeconds };
      limiter = options.redis ? new RateLimiterRedis({ ...opts, storeClient: options.redis, useRedisPackage: false }) : new RateLimiterMemory(opts);
      limiters.set(name, limiter);
    }
    return limiter;
  }

  return {
    async consume(name, bucketId, key, isGlobal = false) {
      const limiter = limiterFor(name);
      const state = (res: RateLimiterRes, limited: boolean): RateLimitState => ({
        limit: limiter.points,
        remaining: Math.max(0, res.remainingPoints),
        resetAfterMs: res.msBeforeNext,
        bucket: bucketId,
        limited,
        global: isGlobal,
      });
      try {
        return state(await limiter.consume(`${bucketId}:${key}`), false);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return state(rejection, true);
        throw rejection;
      }
    },
    reset() {
      if (options.redis) throw new Error("Rate limit counts kept in Redis are shared by every instance and are not reset");
      limiters.clear();
    },
  };
}
