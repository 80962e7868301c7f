import { describe, expect, it } from "vitest";
import { formatDateTime, formatRelative, formatTimeLeft } from "./time-format.ts";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const at = (ms: number) => new Date(NOW + ms);
const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const DAY = 24 * H;

describe("exact moments", () => {
  it("writes the date and the minute", () => {
    expect(formatDateTime("2026-11-21T05:53:27Z", "UTC")).toBe("21 Nov 2026, 05:53");
    expect(formatDateTime(new Date("2026-11-21T05:53:27Z"), "Asia/Tokyo")).toBe("21 Nov 2026, 14:53");
  });
});

describe("relative moments", () => {
  it("says just now within a minute either side", () => {
    expect(formatRelative(at(-59 * S), NOW)).toBe("just now");
    expect(formatRelative(at(30 * S), NOW)).toBe("just now");
  });

  it("uses the largest unit that fits, past and future", () => {
    expect(formatRelative(at(-5 * MIN), NOW)).toBe("5 minutes ago");
    expect(formatRelative(at(-3 * H - 20 * MIN), NOW)).toBe("3 hours ago");
    expect(formatRelative(at(2 * DAY + H), NOW)).toBe("in 2 days");
    expect(formatRelative(at(-DAY), NOW)).toBe("yesterday");
    expect(formatRelative(at(-15 * DAY), NOW)).toBe("2 weeks ago");
    expect(formatRelative(at(-400 * DAY), NOW)).toBe("last year");
  });

  it("reads ISO strings", () => {
    expect(formatRelative(new Date(NOW - H).toISOString(), NOW)).toBe("1 hour ago");
  });
});

describe("time left", () => {
  it("is nothing once the moment has passed", () => {
    expect(formatTimeLeft(at(0), NOW)).toBeNull();
    expect(formatTimeLeft(at(-MIN), NOW)).toBeNull();
  });

  it("counts seconds within the last hour", () => {
    expect(formatTimeLeft(at(42 * S), NOW)).toBe("42 s");
    expect(formatTimeLeft(at(14 * MIN + 5 * S), NOW)).toBe("14 min 05 s");
    expect(formatTimeLeft(at(H - 1), NOW)).toBe("1 h");
    expect(formatTimeLeft(at(H - S - 1), NOW)).toBe("59 min 59 s");
  });

  it("counts hours and minutes within a day, rounded up", () => {
    expect(formatTimeLeft(at(2 * H + 14 * MIN), NOW)).toBe("2 h 14 min");
    expect(formatTimeLeft(at(6 * H - 2 * S), NOW)).toBe("6 h");
    expect(formatTimeLeft(at(DAY), NOW)).toBe("1 day");
  });

  it("counts days and hours beyond a day", () => {
    expect(formatTimeLeft(at(DAY + 1), NOW)).toBe("1 day 1 h");
    expect(formatTimeLeft(at(7 * DAY - MIN), NOW)).toBe("7 days");
    expect(formatTimeLeft(at(3 * DAY + 4 * H), NOW)).toBe("3 days 4 h");
  });
});
