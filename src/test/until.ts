import { expect } from "vitest";

/** Waits until `check` holds (work done by another process or in the background), failing after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  // Real time: a test twin's clock may be frozen or moved in this process.
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline && !(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await check()).toBe(true);
}
