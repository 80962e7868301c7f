import { invalidField } from "~/server/errors.ts";

/** The twin's clock as the twin API shows it. */
export type ClockState = { now: string; frozen: boolean; offset_ms: number };

/**
 * The clock of a process in test mode. It replaces the process's `Date` (installTwinClock), so
 * every expiry reads it without being told: services, Prisma's `@default(now())`, the rate
 * limiter's windows, snowflake timestamps, JWT lifetimes. It starts as the system's time and
 * runs with it; `advance` moves it forward, `freeze` stops it, `set` puts it anywhere (a
 * snapshot's time on restore). Timers (setTimeout) and performance.now() keep real time:
 * connection liveness (heartbeats) and measured durations are not the world's time.
 */
export class TwinClock {
  private offsetMs = 0;
  private frozenAtMs: number | null = null;
  /** Where pacing time is ahead of the system's: moved by advance and set, never by freezing. */
  private pacingOffsetMs = 0;

  constructor(private readonly systemNowMs: () => number) {}

  nowMs(): number {
    return this.frozenAtMs ?? this.systemNowMs() + this.offsetMs;
  }

  get frozen(): boolean {
    return this.frozenAtMs !== null;
  }

  /** Moves the clock forward by `ms` (never back: ids and sequences stay in order). */
  advance(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError("A clock moves forward by a finite, non-negative number of milliseconds");
    if (this.frozenAtMs !== null) this.frozenAtMs += ms;
    else this.offsetMs += ms;
    this.pacingOffsetMs += ms;
  }

  /** Puts the clock at `ms`, frozen or running from there. */
  set(ms: number, frozen: boolean): void {
    this.pacingOffsetMs = ms - this.systemNowMs();
    if (frozen) {
      this.frozenAtMs = ms;
    } else {
      this.frozenAtMs = null;
      this.offsetMs = ms - this.systemNowMs();
    }
  }

  /** Stops the clock where it is (or lets it run on from there). */
  freeze(frozen: boolean): void {
    const now = this.nowMs();
    this.frozenAtMs = frozen ? now : null;
    this.offsetMs = now - this.systemNowMs();
  }

  /**
   * The clock's time as if it had never been frozen: it runs with the system's and jumps with
   * `advance` and `set`. For pacing (one IDENTIFY per 5 seconds): a test that moves the clock
   * passes such a window at once, and a frozen clock does not hold it shut.
   */
  pacingNowMs(): number {
    return this.systemNowMs() + this.pacingOffsetMs;
  }

  state(): ClockState {
    const now = this.nowMs();
    return { now: new SystemDate(now).toISOString(), frozen: this.frozen, offset_ms: now - this.systemNowMs() };
  }
}

/**
 * Moves the clock as the body says. Only forward: ids, sequences and audit order assume time
 * does not go back, so going back is restoring a snapshot (which brings its rows back too).
 */
export function moveClock(clock: TwinClock, body: { advance_ms?: number; set?: string; frozen?: boolean }): void {
  if (body.set !== undefined) {
    const target = Date.parse(body.set);
    const now = clock.nowMs();
    if (target < now)
      throw invalidField(
        ["set"],
        "BASE_TYPE_BAD_TIMESTAMP",
        `The clock only moves forward: ${body.set} is before its time, ${new Date(now).toISOString()}. Restore a snapshot to go back.`,
      );
    clock.set(target, body.frozen ?? clock.frozen);
    return;
  }
  if (body.advance_ms !== undefined) clock.advance(body.advance_ms);
  if (body.frozen !== undefined) clock.freeze(body.frozen);
}

// Process-wide, like the runtime (runtime-of.ts): Next loads modules more than once per process.
const shared = globalThis as { guildhallSystemDate?: DateConstructor; guildhallTwinClock?: TwinClock };
/** The process's own Date, kept before the twin's replaces it. */
const SystemDate: DateConstructor = (shared.guildhallSystemDate ??= Date);

/** Pacing time (TwinClock.pacingNowMs) in test mode; without it, `new Date()`. */
export function pacingTime(): Date {
  return new SystemDate(shared.guildhallTwinClock?.pacingNowMs() ?? SystemDate.now());
}

/**
 * lru-cache options for a TTL cache that guards an expiry: it measures age by the twin's clock
 * once test mode is on, so moving the clock ages its entries as it ages what they guard (a
 * write throttle, counts of who was seen lately); by performance.now() otherwise. Entries kept
 * before test mode came on read as stale, which only costs a reload. No cached "now" between
 * reads (ttlResolution 0): a read right after an advance sees the advance.
 */
export const CLOCK_TTL = {
  perf: { now: (): number => shared.guildhallTwinClock?.nowMs() ?? performance.now() },
  ttlResolution: 0,
} as const;

/**
 * Makes `Date` in this process read the twin's clock: `new Date()` and `Date.now()` answer the
 * clock's time; everything else (`new Date(ms)`, `Date.parse`, instanceof) is the system's Date.
 * One clock per process: a second twin in the same process shares the first one's.
 */
export function installTwinClock(): TwinClock {
  if (shared.guildhallTwinClock) return shared.guildhallTwinClock;
  const clock = new TwinClock(() => SystemDate.now());
  const now = () => clock.nowMs();
  globalThis.Date = new Proxy(SystemDate, {
    construct: (target, args: unknown[], newTarget) => Reflect.construct(target, args.length === 0 ? [clock.nowMs()] : args, newTarget) as object,
    // Date() called without new answers a string of the current time.
    apply: () => new SystemDate(clock.nowMs()).toString(),
    get: (target, property, receiver): unknown => (property === "now" ? now : Reflect.get(target, property, receiver)),
  });
  shared.guildhallTwinClock = clock;
  return clock;
}
