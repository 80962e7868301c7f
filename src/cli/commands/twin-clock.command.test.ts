import { describe, expect, it } from "vitest";
import { parseDuration } from "./twin-clock.command.ts";

describe("durations for twin clock advance", () => {
  it("reads bare milliseconds and amounts with units", () => {
    expect(parseDuration("1500")).toBe(1500);
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("90s")).toBe(90_000);
    expect(parseDuration("15m")).toBe(900_000);
    expect(parseDuration("2h")).toBe(7_200_000);
    expect(parseDuration("7d")).toBe(604_800_000);
    expect(parseDuration("1w")).toBe(604_800_000);
    expect(parseDuration(" 1.5H ")).toBe(5_400_000);
  });

  it("adds several amounts", () => {
    expect(parseDuration("1h30m")).toBe(5_400_000);
    expect(parseDuration("7d1s")).toBe(604_801_000);
    expect(parseDuration("5m30s250ms")).toBe(330_250);
  });

  it("refuses what is not a positive duration", () => {
    for (const text of ["", "0", "0s", "-5s", "5x", "s", "1h 30m", "1.5", "h1", "1e3", "99999999999999999999"])
      expect(() => parseDuration(text), text).toThrow(/Not a duration/);
  });
});
