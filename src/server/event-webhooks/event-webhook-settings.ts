// An application's event webhook settings (the platform's event_webhooks_url, _status and
// _types): one rule for PATCH /applications/@me and the dashboard. A URL is verified with a
// signed PING before it is kept, and whenever event webhooks are (re-)enabled.
import type { Prisma } from "~/generated/prisma/client.ts";
import { applicationKeys } from "~/server/applications/application-keys.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runtimeOf } from "~/server/runtime/runtime-of.ts";
import { EVENT_WEBHOOK_STATUS, isEventWebhookType, type EventWebhookType, type TEventWebhookSettingsBody } from "./event-webhook.schema.ts";
import { verifyEventWebhooksUrl } from "./event-webhook-request.ts";
import { eventWebhookSettingsDenial } from "./event-webhook-rules.ts";

/** The settings as the platform answers them on the application object. */
export type EventWebhookSettings = {
  event_webhooks_url: string | null;
  event_webhooks_status: number;
  event_webhooks_types: EventWebhookType[];
};

/** The stored types, JSON in the row, read leniently: only types still sent count. */
export function storedEventWebhookTypes(json: string): EventWebhookType[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((type): type is EventWebhookType => typeof type === "string" && isEventWebhookType(type)) : [];
}

export function eventWebhookSettingsOf(row: {
  eventWebhooksUrl: string | null;
  eventWebhooksStatus: number;
  eventWebhooksTypes: string;
}): EventWebhookSettings {
  return {
    event_webhooks_url: row.eventWebhooksUrl,
    event_webhooks_status: row.eventWebhooksStatus,
    event_webhooks_types: storedEventWebhookTypes(row.eventWebhooksTypes),
  };
}

/**
 * The one refusal of a URL that did not pass, whatever went wrong: telling a refused address
 * from a closed port or a wrong answer would make the PING a scanner of what the server reaches.
 */
export const EVENT_WEBHOOKS_URL_UNVERIFIED =
  "The event webhooks URL could not be verified: it must be reachable at a public address and answer a signed PING with 204 and an empty body, and a PING with an invalid signature with 401.";

export const SETTINGS_SELECT = { eventWebhooksUrl: true, eventWebhooksStatus: true, eventWebhooksTypes: true } as const;

/**
 * Checks a change of the settings and returns the columns to write (null when nothing
 * changes): enabling needs a URL, and a new URL, or enabling with the stored one, must pass
 * the PING (verifyEventWebhooksUrl), else a field error on event_webhooks_url. Removing the URL
 * disables event webhooks. Nothing is written here: the caller writes the columns in its change.
 */
export async function prepareEventWebhookSettings(
  db: Db,
  applicationId: string,
  body: TEventWebhookSettingsBody,
): Promise<Prisma.ApplicationUpdateInput | null> {
  const { event_webhooks_url: url, event_webhooks_status: status, event_webhooks_types: types } = body;
  if (url === undefined && status === undefined && types === undefined) return null;
  const row = await db.application.findUnique({ where: { id: applicationId }, select: SETTINGS_SELECT });
  if (!row) throw new ApiError("UNKNOWN_APPLICATION");
  const next = {
    url: url === undefined ? row.eventWebhooksUrl : url,
    status: status ?? (url === null ? EVENT_WEBHOOK_STATUS.DISABLED : row.eventWebhooksStatus),
  };
  const denial = eventWebhookSettingsDenial(next);
  if (denial) throw denial;
  const isNewUrl = url !== undefined && url !== null && url !== row.eventWebhooksUrl;
  const isEnabling = next.status === EVENT_WEBHOOK_STATUS.ENABLED && row.eventWebhooksStatus !== EVENT_WEBHOOK_STATUS.ENABLED;
  if (next.url && (isNewUrl || isEnabling)) {
    const { signingKey } = await applicationKeys(db, applicationId);
    const isVerified = await verifyEventWebhooksUrl(next.url, applicationId, signingKey, runtimeOf(db).eventWebhookDestinations);
    if (!isVerified) throw invalidField(["event_webhooks_url"], "APPLICATION_EVENT_WEBHOOKS_URL_INVALID", EVENT_WEBHOOKS_URL_UNVERIFIED);
  }
  return {
    eventWebhooksUrl: next.url,
    eventWebhooksStatus: next.status,
    ...(types !== undefined && { eventWebhooksTypes: JSON.stringify([...new Set(types)]) }),
  };
}
