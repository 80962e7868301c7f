// Reading the outbox into event webhook deliveries: the events applications receive as webhook
// events become one delivery row per application that has event webhooks enabled for that
// type. A stored cursor says how far the outbox was read; it trails the head by a settling
// window, because on PostgreSQL an event may commit after a later-numbered one. Reading an
// event again is harmless: a delivery is unique per application and event.
import { Prisma } from "~/generated/prisma/client.ts";
import type { Db } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { storedEventOf, type StoredEvent } from "~/server/events/event-map.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { EVENT_WEBHOOK_STATUS, EVENT_WEBHOOK_TYPES, type EventWebhookType } from "./event-webhook.schema.ts";
import { storedEventWebhookTypes } from "./event-webhook-settings.ts";

const CURSOR_ID = "event-webhooks";
const BATCH = 500;
/** Longer than any change's transaction: an event older than this has committed or never will. */
const SETTLE_MS = 10_000;

type WebhookEvent = StoredEvent<EventWebhookType>;

/** The event body object ({type, timestamp, data}) the application receives: the platform's data, without the outbox's own fields. */
function eventBodyOf(event: WebhookEvent): string {
  const data = (() => {
    switch (event.type) {
      case "APPLICATION_AUTHORIZED":
      case "APPLICATION_DEAUTHORIZED": {
        // application_id says whose event it is; the platform's data does not repeat it.
        const { application_id: _applicationId, ...rest } = event.data;
        return rest;
      }
      default:
        return event.data;
    }
  })();
  return JSON.stringify({ type: event.type, timestamp: event.createdAt, data });
}

/** Which application an event belongs to: named in it, or the lobby's (a deleted message names only its lobby). */
async function applicationIdsOf(db: Db, events: readonly WebhookEvent[]): Promise<Map<number, string>> {
  const owners = new Map<number, string>();
  const lobbyIds = new Set<string>();
  for (const event of events) {
    if (event.type === "LOBBY_MESSAGE_DELETE") lobbyIds.add(event.data.lobby_id);
    else owners.set(event.seq, event.data.application_id);
  }
  if (lobbyIds.size > 0) {
    const lobbies = await db.lobby.findMany({ where: { id: { in: [...lobbyIds] } }, select: { id: true, applicationId: true } });
    const byLobby = new Map(lobbies.map((lobby) => [lobby.id, lobby.applicationId]));
    for (const event of events) {
      const owner = event.type === "LOBBY_MESSAGE_DELETE" ? byLobby.get(event.data.lobby_id) : undefined;
      if (owner) owners.set(event.seq, owner);
    }
  }
  return owners;
}

/** The delivery rows for a batch of events: one per event whose application is subscribed to its type. */
async function deliveriesOf(db: Db, events: readonly WebhookEvent[], now: Date): Promise<Prisma.Sql[]> {
  const owners = await applicationIdsOf(db, events);
  const applications = await db.application.findMany({
    where: { id: { in: [...new Set(owners.values())] }, eventWebhooksStatus: EVENT_WEBHOOK_STATUS.ENABLED, eventWebhooksUrl: { not: null } },
    select: { id: true, eventWebhooksTypes: true },
  });
  const subscribed = new Map(applications.map((app) => [app.id, new Set(storedEventWebhookTypes(app.eventWebhooksTypes))]));
  return events.flatMap((event) => {
    const applicationId = owners.get(event.seq);
    if (!applicationId || !subscribed.get(applicationId)?.has(event.type)) return [];
    return [Prisma.sql`(${newId()}, ${applicationId}, ${event.seq}, ${event.type}, ${eventBodyOf(event)}, 'pending', 0, ${now}, ${now})`];
  });
}

/**
 * Reads the outbox past the cursor into deliveries, a batch at a time, and moves the cursor
 * up to what has settled. Safe on any number of instances at once: deliveries are inserted
 * once, and the cursor only moves forward (a conditional update).
 */
export async function readOutboxIntoDeliveries(db: Db, now: Date): Promise<void> {
  await runChange(
    { db, actor: null },
    ({ tx }) => tx.$executeRaw`INSERT INTO "EventWebhookCursor" ("id", "seq") VALUES (${CURSOR_ID}, 0) ON CONFLICT ("id") DO NOTHING`,
  );
  const settled = await db.event.findFirst({
    where: { createdAt: { lte: new Date(now.getTime() - SETTLE_MS) } },
    orderBy: { createdAt: "desc" },
    select: { seq: true },
  });
  let cursor = (await db.eventWebhookCursor.findUniqueOrThrow({ where: { id: CURSOR_ID } })).seq;
  for (;;) {
    const rows = await db.event.findMany({ where: { seq: { gt: cursor }, type: { in: [...EVENT_WEBHOOK_TYPES] } }, orderBy: { seq: "asc" }, take: BATCH });
    const deliveries = await deliveriesOf(
      db,
      rows.map((row) => storedEventOf(row) as WebhookEvent),
      now,
    );
    const isFull = rows.length === BATCH;
    const readTo = isFull ? rows.at(-1)!.seq : Number.MAX_SAFE_INTEGER;
    const next = Math.min(readTo, settled?.seq ?? 0);
    if (deliveries.length > 0 || next > cursor) {
      // The batch's deliveries and the cursor past them commit together.
      await runChange({ db, actor: null }, async ({ tx }) => {
        if (deliveries.length > 0) {
          await tx.$executeRaw`INSERT INTO "EventWebhookDelivery" ("id", "applicationId", "eventSeq", "eventType", "event", "status", "attempts", "nextAttemptAt", "createdAt") VALUES ${Prisma.join(deliveries)} ON CONFLICT ("applicationId", "eventSeq") DO NOTHING`;
        }
        if (next > cursor) await tx.eventWebhookCursor.updateMany({ where: { id: CURSOR_ID, seq: { lt: next } }, data: { seq: next } });
      });
    }
    if (!isFull || next <= cursor) return;
    cursor = next;
  }
}
