/**
 * Runs background work again and again, each run `intervalMs` apart give or take half of
 * it, so that instances started together spread out; the first run after `firstDelayMs`.
 * A failed run is logged under `label` and the next one still comes. Never holds the process open.
 */
export function repeatWithJitter(work: () => Promise<unknown>, options: { intervalMs: number; firstDelayMs: number; label: string }): void {
  const schedule = (delayMs: number) => {
    setTimeout(() => {
      work()
        .catch((error: unknown) => console.error(`${options.label} failed`, error))
        .finally(() => schedule(options.intervalMs / 2 + Math.random() * options.intervalMs));
    }, delayMs).unref();
  };
  schedule(options.firstDelayMs);
}
