import { expect } from "vitest";

/** Waits until `check` holds (work done by another process or in the background), failing after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await check()).toBe(true);
}
