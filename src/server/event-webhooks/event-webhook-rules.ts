// The rules of event webhook delivery as pure functions: when a failed attempt is tried again,
// when an application's event webhooks are turned off for failing, and which settings are refused.
import { invalidField, type ApiError } from "~/server/errors.ts";
import { EVENT_WEBHOOK_STATUS } from "./event-webhook.schema.ts";

/**
 * Attempts per delivery: the first and six retries 10 s, 20 s, ... 320 s apart, so the last
 * comes about 10 minutes after the first, as the platform retries "for up to 10 minutes".
 */
export const MAX_DELIVERY_ATTEMPTS = 7;
const FIRST_RETRY_DELAY_MS = 10_000;

/** How long after its `attempts`-th failed attempt a delivery is tried again (exponential backoff). */
export function retryDelayMs(attempts: number): number {
  return FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, attempts - 1);
}

/**
 * Persistent failure: this many deliveries in a row failed every attempt, with no delivery
 * succeeding in between, and the failing has lasted at least FAILING_PERIOD_MS (from the
 * first of them being made). A short outage never turns event webhooks off; a receiver gone
 * for an hour does, until its owner enables them again.
 */
export const FAILED_DELIVERIES_TO_DISABLE = 3;
export const FAILING_PERIOD_MS = 60 * 60_000;

export function isPersistentlyFailing(input: { consecutiveFailures: number; failingSince: Date | null; now: Date }): boolean {
  if (input.consecutiveFailures < FAILED_DELIVERIES_TO_DISABLE || !input.failingSince) return false;
  return input.now.getTime() - input.failingSince.getTime() >= FAILING_PERIOD_MS;
}

/** Event webhooks cannot be enabled without a URL to send them to (a field error on the status). */
export function eventWebhookSettingsDenial(settings: { url: string | null; status: number }): ApiError | null {
  if (settings.status === EVENT_WEBHOOK_STATUS.ENABLED && !settings.url) {
    return invalidField(["event_webhooks_status"], "APPLICATION_EVENT_WEBHOOKS_URL_REQUIRED", "Event webhooks need an event webhooks URL to be enabled.");
  }
  return null;
}
