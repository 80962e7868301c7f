// The dashboard's event webhooks section: an owned application's settings (by the same rule as
// PATCH /applications/@me) and its delivery log.
import { editApplication } from "~/server/applications/application.service.ts";
import { ownedApplication } from "~/server/applications/application-dashboard.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { TEventWebhookLogInput, TEventWebhookSettingsBody } from "./event-webhook.schema.ts";
import { eventWebhookSettingsOf, prepareEventWebhookSettings, SETTINGS_SELECT, type EventWebhookSettings } from "./event-webhook-settings.ts";

/** The dashboard's read of an owned application's settings. */
export async function getOwnEventWebhookSettings(ctx: ServiceContext, input: { applicationId: string }): Promise<EventWebhookSettings> {
  await ownedApplication(ctx, input.applicationId);
  const row = await ctx.db.application.findUniqueOrThrow({ where: { id: input.applicationId }, select: SETTINGS_SELECT });
  return eventWebhookSettingsOf(row);
}

/** The dashboard's change of an owned application's settings, by the same rule as PATCH /applications/@me. */
export async function changeOwnEventWebhookSettings(
  ctx: ServiceContext,
  input: { applicationId: string; body: TEventWebhookSettingsBody },
): Promise<EventWebhookSettings> {
  await ownedApplication(ctx, input.applicationId);
  const eventWebhooks = await prepareEventWebhookSettings(ctx.db, input.applicationId, input.body);
  if (eventWebhooks) await editApplication(ctx, input.applicationId, { eventWebhooks });
  return getOwnEventWebhookSettings(ctx, input);
}

/** One line of the delivery log. */
export type EventWebhookDeliveryEntry = {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  createdAt: string;
  finishedAt: string | null;
  nextAttemptAt: string | null;
  lastHttpStatus: number | null;
  lastError: string | null;
};

/** A page of an owned application's delivery log, newest first, before the `before` delivery; `nextBefore` reads the older page, null when there is none. */
export async function listOwnEventWebhookDeliveries(
  ctx: ServiceContext,
  input: TEventWebhookLogInput,
): Promise<{ deliveries: EventWebhookDeliveryEntry[]; nextBefore: string | null }> {
  await ownedApplication(ctx, input.applicationId);
  const rows = await ctx.db.eventWebhookDelivery.findMany({
    where: { applicationId: input.applicationId, ...(input.before && { id: { lt: input.before } }) },
    orderBy: { id: "desc" },
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  return {
    nextBefore: rows.length > input.limit ? page.at(-1)!.id : null,
    deliveries: page.map((row) => ({
      id: row.id,
      eventType: row.eventType,
      status: row.status,
      attempts: row.attempts,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      nextAttemptAt: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
      lastHttpStatus: row.lastHttpStatus,
      lastError: row.lastError,
    })),
  };
}
