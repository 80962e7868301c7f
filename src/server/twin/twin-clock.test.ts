import { describe, expect, it } from "vitest";
import { CLOCK_TTL, installTwinClock, moveClock, TwinClock } from "./twin-clock.ts";

const START = Date.UTC(2030, 0, 1);

/** A clock over a system time the test moves by hand. */
function clockAt(start = START) {
  const system = { now: start };
  const clock = new TwinClock(() => system.now);
  return { clock, system };
}

describe("TwinClock", () => {
  it("runs with the system's time until moved", () => {
    const { clock, system } = clockAt();
    expect(clock.state()).toEqual({ now: "2030-01-01T00:00:00.000Z", frozen: false, offset_ms: 0 });
    system.now += 5000;
    expect(clock.nowMs()).toBe(START + 5000);
  });

  it("advances forward and keeps running from there", () => {
    const { clock, system } = clockAt();
    clock.advance(60_000);
    expect(clock.state()).toEqual({ now: "2030-01-01T00:01:00.000Z", frozen: false, offset_ms: 60_000 });
    system.now += 1000;
    expect(clock.nowMs()).toBe(START + 61_000);
  });

  it("never goes back through advance", () => {
    const { clock } = clockAt();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(() => clock.advance(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(clock.nowMs()).toBe(START);
  });

  it("moves as a twin caller asks: forward to a time or by an amount, frozen or not, never back", () => {
    const { clock } = clockAt();
    moveClock(clock, { advance_ms: 1000, frozen: true });
    expect(clock.state()).toMatchObject({ now: "2030-01-01T00:00:01.000Z", frozen: true });
    moveClock(clock, { set: "2030-01-02T00:00:00.000Z" });
    expect(clock.state()).toMatchObject({ now: "2030-01-02T00:00:00.000Z", frozen: true });
    expect(() => moveClock(clock, { set: "2030-01-01T00:00:00.000Z" })).toThrow(expect.objectContaining({ status: 400 }));
    expect(clock.nowMs()).toBe(Date.UTC(2030, 0, 2));
  });

  it("paces as if never frozen: running with the system, jumping with advance and set", () => {
    const { clock, system } = clockAt();
    clock.freeze(true);
    system.now += 5000;
    expect(clock.nowMs()).toBe(START);
    expect(clock.pacingNowMs()).toBe(START + 5000);
    clock.advance(60_000);
    expect(clock.pacingNowMs()).toBe(START + 65_000);
    clock.freeze(false);
    expect(clock.pacingNowMs()).toBe(START + 65_000);
    clock.set(START + 3_600_000, true);
    expect(clock.pacingNowMs()).toBe(START + 3_600_000);
  });

  it("stays put while frozen, moves only when advanced, and runs on when unfrozen", () => {
    const { clock, system } = clockAt();
    clock.freeze(true);
    system.now += 10_000;
    expect(clock.state()).toEqual({ now: "2030-01-01T00:00:00.000Z", frozen: true, offset_ms: -10_000 });
    clock.advance(1000);
    expect(clock.nowMs()).toBe(START + 1000);
    clock.freeze(false);
    expect(clock.frozen).toBe(false);
    system.now += 500;
    expect(clock.nowMs()).toBe(START + 1500);
  });

  it("is set anywhere, frozen or running", () => {
    const { clock, system } = clockAt();
    clock.set(START + 3_600_000, true);
    system.now += 1000;
    expect(clock.state()).toMatchObject({ now: "2030-01-01T01:00:00.000Z", frozen: true });
    clock.set(START + 7_200_000, false);
    system.now += 1000;
    expect(clock.nowMs()).toBe(START + 7_201_000);
  });
});

describe("the process's Date in test mode", () => {
  const clock = installTwinClock();

  it("answers the clock's time for now, and the system's Date for everything else", () => {
    clock.advance(24 * 60 * 60 * 1000);
    const expected = clock.nowMs();
    clock.freeze(true);
    try {
      expect(Date.now()).toBe(expected);
      expect(new Date().getTime()).toBe(expected);
      expect(new Date(0).toISOString()).toBe("1970-01-01T00:00:00.000Z");
      expect(new Date(2030, 0, 2).getFullYear()).toBe(2030);
      expect(Date.parse("2030-01-01T00:00:00Z")).toBe(START);
      expect(Date.UTC(2030, 0, 1)).toBe(START);
      expect(new Date()).toBeInstanceOf(Date);
      expect(new Date(0) instanceof Date).toBe(true);
      expect(Object.prototype.toString.call(new Date())).toBe("[object Date]");
      // Date() called without new is a string of the current (the clock's) time.
      expect((Date as unknown as () => string)()).toBe(new Date(expected).toString());
      expect(new Date().toString()).toBe(new Date(expected).toString());
    } finally {
      clock.freeze(false);
    }
  });

  it("is installed once per process", () => {
    expect(installTwinClock()).toBe(clock);
  });

  it("ages TTL caches by the clock once installed", () => {
    const before = CLOCK_TTL.perf.now();
    clock.advance(60_000);
    expect(CLOCK_TTL.perf.now() - before).toBeGreaterThanOrEqual(60_000);
  });
});
