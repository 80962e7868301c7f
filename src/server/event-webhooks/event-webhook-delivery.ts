// Sending deliveries: a worker claims a due delivery with a lease (a conditional update that
// also counts the attempt), reads the application's URL and key at that moment, POSTs the
// signed event to the address the URL resolves to now (checked again: DNS may have changed),
// and records what came back. A failed attempt is tried again with backoff until
// MAX_DELIVERY_ATTEMPTS, then the delivery fails; persistent failure turns the application's
// event webhooks off (status 3). A worker that dies leaves a lease that lapses, so another
// takes the delivery up and none stays in flight for ever.
import { InternalEvents } from "~/server/events/event-map.ts";
import { runChange } from "~/server/events/change.ts";
import { applicationKeys } from "~/server/applications/application-keys.ts";
import type { Db } from "~/server/db/client.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { runtimeOf } from "~/server/runtime/runtime-of.ts";
import { EVENT_WEBHOOK_STATUS } from "./event-webhook.schema.ts";
import { EVENT_WEBHOOK_TIMEOUT_MS, eventBody, sendEventWebhook } from "./event-webhook-request.ts";
import { isPersistentlyFailing, MAX_DELIVERY_ATTEMPTS, retryDelayMs } from "./event-webhook-rules.ts";

export const DELIVERY_STATUS = { PENDING: "pending", DELIVERED: "delivered", FAILED: "failed", CANCELLED: "cancelled" } as const;

/** Longer than an attempt can take (its timeout), so a lease only lapses when its worker is gone. */
const LEASE_MS = EVENT_WEBHOOK_TIMEOUT_MS * 5;
/** Deliveries one run sends at once. */
const BATCH = 20;

type Claimed = { id: string; applicationId: string; event: string; attempts: number };

/** One conditional update of deliveries, as a change of its own; answers how many rows it changed. */
async function updateDeliveries(db: Db, args: Prisma.EventWebhookDeliveryUpdateManyArgs): Promise<number> {
  return (await runChange({ db, actor: null }, ({ tx }) => tx.eventWebhookDelivery.updateMany(args))).count;
}

/** Sends every due delivery once; `now` is the clock the schedule is read against. */
export async function sendDueDeliveries(db: Db, now: Date): Promise<void> {
  const due = await db.eventWebhookDelivery.findMany({
    where: { status: DELIVERY_STATUS.PENDING, nextAttemptAt: { lte: now }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    orderBy: { nextAttemptAt: "asc" },
    take: BATCH,
    select: { id: true, applicationId: true, event: true, attempts: true },
  });
  const claimed = await Promise.all(due.map((delivery) => claim(db, delivery, now)));
  await Promise.all(claimed.filter((delivery) => delivery !== null).map((delivery) => attempt(db, delivery, now)));
}

/** Takes a delivery for one attempt, unless another worker took it first. */
async function claim(db: Db, delivery: Claimed, now: Date): Promise<Claimed | null> {
  const count = await updateDeliveries(db, {
    where: { id: delivery.id, status: DELIVERY_STATUS.PENDING, attempts: delivery.attempts, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { attempts: { increment: 1 }, leaseUntil: new Date(now.getTime() + LEASE_MS) },
  });
  return count === 1 ? { ...delivery, attempts: delivery.attempts + 1 } : null;
}

async function attempt(db: Db, delivery: Claimed, now: Date): Promise<void> {
  // Only while this worker still holds the attempt it claimed.
  const mine = { id: delivery.id, status: DELIVERY_STATUS.PENDING, attempts: delivery.attempts };
  const app = await db.application.findUnique({ where: { id: delivery.applicationId }, select: { eventWebhooksUrl: true, eventWebhooksStatus: true } });
  // The URL is the owner's as it is now: turned off or removed since the event, nothing is sent.
  if (!app?.eventWebhooksUrl || app.eventWebhooksStatus !== EVENT_WEBHOOK_STATUS.ENABLED) {
    await updateDeliveries(db, {
      where: mine,
      data: {
        status: DELIVERY_STATUS.CANCELLED,
        lastError: "Event webhooks were turned off before it was sent.",
        finishedAt: now,
        nextAttemptAt: null,
        leaseUntil: null,
      },
    });
    return;
  }
  const { signingKey } = await applicationKeys(db, delivery.applicationId);
  const result = await sendEventWebhook(
    app.eventWebhooksUrl,
    eventBody(delivery.applicationId, delivery.event),
    signingKey,
    runtimeOf(db).eventWebhookDestinations,
  );
  const outcome = { lastHttpStatus: result.status, lastError: result.error, leaseUntil: null };
  if (result.error === null) {
    await updateDeliveries(db, { where: mine, data: { ...outcome, status: DELIVERY_STATUS.DELIVERED, finishedAt: now, nextAttemptAt: null } });
    return;
  }
  if (delivery.attempts < MAX_DELIVERY_ATTEMPTS) {
    await updateDeliveries(db, { where: mine, data: { ...outcome, nextAttemptAt: new Date(now.getTime() + retryDelayMs(delivery.attempts)) } });
    return;
  }
  const failed = await updateDeliveries(db, {
    where: mine,
    data: { ...outcome, status: DELIVERY_STATUS.FAILED, finishedAt: now, nextAttemptAt: null },
  });
  if (failed === 1) await disableIfPersistentlyFailing(db, delivery.applicationId, now);
}

/** Turns an application's event webhooks off (status 3) when its deliveries fail persistently (event-webhook-rules.ts). */
async function disableIfPersistentlyFailing(db: Db, applicationId: string, now: Date): Promise<void> {
  const lastDelivered = await db.eventWebhookDelivery.findFirst({
    where: { applicationId, status: DELIVERY_STATUS.DELIVERED },
    orderBy: { finishedAt: "desc" },
    select: { finishedAt: true },
  });
  const since = lastDelivered?.finishedAt ? { finishedAt: { gt: lastDelivered.finishedAt } } : {};
  const where = { applicationId, status: DELIVERY_STATUS.FAILED, ...since };
  const [consecutiveFailures, first] = await Promise.all([
    db.eventWebhookDelivery.count({ where }),
    db.eventWebhookDelivery.findFirst({ where, orderBy: { createdAt: "asc" }, select: { createdAt: true } }),
  ]);
  if (!isPersistentlyFailing({ consecutiveFailures, failingSince: first?.createdAt ?? null, now })) return;
  await runChange({ db, actor: null }, async ({ tx, emit }) => {
    const { count } = await tx.application.updateMany({
      where: { id: applicationId, eventWebhooksStatus: EVENT_WEBHOOK_STATUS.ENABLED },
      data: { eventWebhooksStatus: EVENT_WEBHOOK_STATUS.DISABLED_BY_FAILURE },
    });
    if (count === 1) await emit(InternalEvents.ApplicationUpdated, { application_id: applicationId });
  });
}
