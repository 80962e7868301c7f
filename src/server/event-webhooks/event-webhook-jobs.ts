// The background work of event webhooks, started by background.ts in serving processes: every
// second, read the outbox into deliveries and send those due; about hourly, trim the delivery log.
import type { Db } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { repeatEvery, repeatWithJitter, type Stop } from "~/server/repeat.ts";
import { DELIVERY_STATUS, sendDueDeliveries } from "./event-webhook-delivery.ts";
import { readOutboxIntoDeliveries } from "./event-webhook-outbox.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The delivery log keeps finished deliveries for a week, and at most this many per application. */
export const DELIVERY_LOG_DAYS = 7;
const DELIVERY_LOG_MAX_PER_APPLICATION = 1000;

/** One turn of the job: new events become deliveries, and due deliveries are sent. */
export async function runEventWebhooks(db: Db, now = new Date()): Promise<void> {
  await readOutboxIntoDeliveries(db, now);
  await sendDueDeliveries(db, now);
}

/**
 * Trims the delivery log: finished deliveries older than DELIVERY_LOG_DAYS, and past the
 * newest DELIVERY_LOG_MAX_PER_APPLICATION of an application. Pending ones stay. Idempotent
 * conditional deletes, safe on any number of instances.
 */
export async function pruneDeliveryLog(db: Db, now: Date): Promise<void> {
  const finished = { status: { not: DELIVERY_STATUS.PENDING } };
  const cutoff = new Date(now.getTime() - DELIVERY_LOG_DAYS * DAY_MS);
  await runChange({ db, actor: null }, ({ tx }) => tx.eventWebhookDelivery.deleteMany({ where: { ...finished, finishedAt: { lt: cutoff } } }));
  const crowded = await db.eventWebhookDelivery.groupBy({
    by: ["applicationId"],
    where: finished,
    _count: { _all: true },
    having: { applicationId: { _count: { gt: DELIVERY_LOG_MAX_PER_APPLICATION } } },
  });
  for (const { applicationId } of crowded) {
    const oldestKept = await db.eventWebhookDelivery.findFirst({
      where: { applicationId, ...finished },
      orderBy: { id: "desc" },
      skip: DELIVERY_LOG_MAX_PER_APPLICATION - 1,
      select: { id: true },
    });
    if (oldestKept)
      await runChange({ db, actor: null }, ({ tx }) =>
        tx.eventWebhookDelivery.deleteMany({ where: { applicationId, ...finished, id: { lt: oldestKept.id } } }),
      );
  }
}

const SEND_INTERVAL_MS = 1_000;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export function startEventWebhooks(db: Db): Stop {
  const stops = [
    repeatEvery(() => runEventWebhooks(db), { intervalMs: SEND_INTERVAL_MS, label: "[event webhooks] delivering" }),
    repeatWithJitter(() => pruneDeliveryLog(db, new Date()), {
      intervalMs: PRUNE_INTERVAL_MS,
      firstDelayMs: 60_000,
      label: "[event webhooks] trimming the delivery log",
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
