import { InternalEvents } from "~/server/events/event-map.ts";
import type { Db } from "~/server/db/client.ts";
import { runChange, type ChangeContext } from "~/server/events/change.ts";

/**
 * An operator grants an application production rate limits (`lifted`), or takes them back:
 * the development limits of spec 8 (ratelimit.ts, `dev*` buckets) apply only without them.
 * Every instance drops its cached copy of the application at once.
 */
export async function setRateLimitsLifted(ctx: ChangeContext, applicationId: string, lifted: boolean): Promise<void> {
  await runChange(ctx, async ({ tx, emit }) => {
    await tx.application.update({ where: { id: applicationId }, data: { rateLimitsLifted: lifted } });
    await emit(InternalEvents.ApplicationUpdated, { application_id: applicationId });
  });
}

/** Whether development rate limits apply to an application; null when there is none. */
export async function developmentLimitsApply(db: Db, applicationId: string): Promise<boolean | null> {
  const row = await db.application.findUnique({ where: { id: applicationId }, select: { rateLimitsLifted: true } });
  return row ? !row.rateLimitsLifted : null;
}
