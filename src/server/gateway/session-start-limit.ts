import type { APIGatewaySessionStartLimit } from "discord-api-types/v10";
import type { Db, Tx } from "~/server/db/client.ts";
import { isUniqueViolation } from "~/server/db/prisma-errors.ts";
import { runChange } from "~/server/events/change.ts";
import { pacingTime } from "~/server/twin/twin-clock.ts";

/** The identify budget: `total` session starts per `windowMs`, and per rate_limit_key one IDENTIFY per `identifyIntervalMs`. */
export type SessionStartLimits = { total: number; windowMs: number; maxConcurrency: number; identifyIntervalMs: number };

export const DEFAULT_SESSION_START_LIMITS: SessionStartLimits = { total: 1000, windowMs: 24 * 60 * 60 * 1000, maxConcurrency: 1, identifyIntervalMs: 5000 };

type App = { id: string; maxConcurrency: number };

/** An application set up for large bot sharding keeps its own concurrency; the operator's setting raises everyone's. */
function maxConcurrencyOf(app: App, limits: SessionStartLimits): number {
  return Math.max(app.maxConcurrency, limits.maxConcurrency);
}

/** session_start_limit as GET /gateway/bot shows it. */
export async function readSessionStartLimit(db: Db, app: App, limits: SessionStartLimits, now: Date): Promise<APIGatewaySessionStartLimit> {
  const budget = await db.gatewaySessionBudget.findUnique({ where: { applicationId: app.id } });
  const isOpen = budget !== null && budget.windowStart.getTime() > now.getTime() - limits.windowMs;
  return {
    total: limits.total,
    remaining: isOpen ? Math.max(0, limits.total - budget.used) : limits.total,
    reset_after: isOpen ? budget.windowStart.getTime() + limits.windowMs - now.getTime() : 0,
    max_concurrency: maxConcurrencyOf(app, limits),
  };
}

/** Why an IDENTIFY may not start a session now: too soon after another on its key, or the window's budget is spent. */
export type SessionStartRefusal = "concurrency" | "exhausted";

/**
 * One step of a claim as a change of its own: a unique clash (the row another instance just
 * made) then rolls back only this step, and on PostgreSQL leaves no aborted transaction behind.
 */
function step<T>(db: Db, write: (tx: Tx) => Promise<T>): Promise<T> {
  return runChange({ db, actor: null }, ({ tx }) => write(tx));
}

/**
 * Takes one session start for an IDENTIFY on `shardId`, or says why not. Every step is one
 * conditional write, so instances sharing the database count together.
 */
export async function claimSessionStart(db: Db, app: App, shardId: number, limits: SessionStartLimits, now: Date): Promise<SessionStartRefusal | null> {
  const rateLimitKey = shardId % maxConcurrencyOf(app, limits);
  // Paced by a test twin's moves of the clock, but never held shut by freezing it.
  const paced = pacingTime();
  const slot = await step(db, (tx) =>
    tx.gatewayIdentifySlot.updateMany({
      where: { applicationId: app.id, rateLimitKey, lastAt: { lte: new Date(paced.getTime() - limits.identifyIntervalMs) } },
      data: { lastAt: paced },
    }),
  );
  if (
    slot.count === 0 &&
    !(await createOnce(() => step(db, (tx) => tx.gatewayIdentifySlot.create({ data: { applicationId: app.id, rateLimitKey, lastAt: paced } }))))
  ) {
    return "concurrency";
  }
  return (await spendBudget(db, app.id, limits, now)) ? null : "exhausted";
}

/**
 * Takes one session start of the application's budget for a game client's session, or false
 * when the window's budget is spent. Players take no identify slot: those are the bot's, one
 * per rate_limit_key of its shards, and a game's players connect at once.
 */
export async function claimPlayerSessionStart(db: Db, applicationId: string, limits: SessionStartLimits, now: Date): Promise<boolean> {
  return spendBudget(db, applicationId, limits, now);
}

async function spendBudget(db: Db, applicationId: string, limits: SessionStartLimits, now: Date): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const renewed = await step(db, (tx) =>
      tx.gatewaySessionBudget.updateMany({
        where: { applicationId, windowStart: { lte: new Date(now.getTime() - limits.windowMs) } },
        data: { windowStart: now, used: 1 },
      }),
    );
    if (renewed.count > 0) return true;
    const spent = await step(db, (tx) =>
      tx.gatewaySessionBudget.updateMany({ where: { applicationId, used: { lt: limits.total } }, data: { used: { increment: 1 } } }),
    );
    if (spent.count > 0) return true;
    if (await db.gatewaySessionBudget.findUnique({ where: { applicationId }, select: { used: true } })) return false;
    if (limits.total > 0 && (await createOnce(() => step(db, (tx) => tx.gatewaySessionBudget.create({ data: { applicationId, windowStart: now, used: 1 } })))))
      return true;
    // Another instance created the window first: count against it.
  }
  return false;
}

/** Creates a row unless another writer just did; false when it lost that race. */
async function createOnce(create: () => Promise<unknown>): Promise<boolean> {
  try {
    await create();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
