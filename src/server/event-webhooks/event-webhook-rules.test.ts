import { describe, expect, it } from "vitest";
import { EVENT_WEBHOOK_STATUS } from "./event-webhook.schema.ts";
import {
  eventWebhookSettingsDenial,
  FAILED_DELIVERIES_TO_DISABLE,
  FAILING_PERIOD_MS,
  isPersistentlyFailing,
  MAX_DELIVERY_ATTEMPTS,
  retryDelayMs,
} from "./event-webhook-rules.ts";

describe("event webhook rules", () => {
  it("doubles the wait after each failed attempt, the last attempt about 10 minutes after the first", () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([10_000, 20_000, 40_000]);
    let total = 0;
    for (let attempt = 1; attempt < MAX_DELIVERY_ATTEMPTS; attempt += 1) total += retryDelayMs(attempt);
    expect(total).toBeGreaterThanOrEqual(10 * 60_000);
    expect(total).toBeLessThan(11 * 60_000);
  });

  it("calls failure persistent only after enough failures in a row over the failing period", () => {
    const now = new Date("2030-01-01T12:00:00Z");
    const longAgo = new Date(now.getTime() - FAILING_PERIOD_MS);
    expect(isPersistentlyFailing({ consecutiveFailures: FAILED_DELIVERIES_TO_DISABLE, failingSince: longAgo, now })).toBe(true);
    expect(isPersistentlyFailing({ consecutiveFailures: FAILED_DELIVERIES_TO_DISABLE - 1, failingSince: longAgo, now })).toBe(false);
    expect(isPersistentlyFailing({ consecutiveFailures: 50, failingSince: new Date(longAgo.getTime() + 1), now })).toBe(false);
    expect(isPersistentlyFailing({ consecutiveFailures: 50, failingSince: null, now })).toBe(false);
  });

  it("refuses enabling without a URL, on the status field", () => {
    expect(eventWebhookSettingsDenial({ url: null, status: EVENT_WEBHOOK_STATUS.ENABLED })?.errors).toHaveProperty("event_webhooks_status");
    expect(eventWebhookSettingsDenial({ url: null, status: EVENT_WEBHOOK_STATUS.DISABLED })).toBeNull();
    expect(eventWebhookSettingsDenial({ url: "https://example.com/hooks", status: EVENT_WEBHOOK_STATUS.ENABLED })).toBeNull();
  });
});
