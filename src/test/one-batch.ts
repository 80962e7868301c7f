import { vi } from "vitest";
import type { Runtime } from "~/server/runtime/runtime.ts";
import { until } from "./until.ts";

/**
 * Starts `calls` at once and holds the write path until each has queued its change, so they
 * are written in one batch, in the order they arrived: each read what it read before any of
 * them committed, as racing requests do. Each call makes one change (its caller's activity
 * already recorded, or that write counts as its change).
 */
export async function inOneBatch<T>(runtime: Runtime, calls: readonly (() => Promise<T>)[]): Promise<PromiseSettledResult<T>[]> {
  const run = vi.spyOn(runtime.writes, "run");
  try {
    let settled: Promise<PromiseSettledResult<T>[]> | undefined;
    await runtime.writes.exclusive(async () => {
      settled = Promise.allSettled(calls.map((call) => call()));
      await until(() => Promise.resolve(run.mock.calls.length >= calls.length));
    });
    return await settled!;
  } finally {
    run.mockRestore();
  }
}
