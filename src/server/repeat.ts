/** Stops repeated work: no run starts after it (one under way finishes). */
export type Stop = () => void;

/**
 * Runs background work again and again, each run `intervalMs` apart give or take half of
 * it, so that instances started together spread out; the first run after `firstDelayMs`.
 * A failed run is logged under `label` and the next one still comes. Never holds the process open.
 */
export function repeatWithJitter(work: () => Promise<unknown>, options: { intervalMs: number; firstDelayMs: number; label: string }): Stop {
  return repeat(work, options.firstDelayMs, () => options.intervalMs / 2 + Math.random() * options.intervalMs, options.label);
}

/** Runs `work` `intervalMs` after the previous run ended (polling for work another worker left); as above otherwise. */
export function repeatEvery(work: () => Promise<unknown>, options: { intervalMs: number; label: string }): Stop {
  return repeat(work, options.intervalMs, () => options.intervalMs, options.label);
}

function repeat(work: () => Promise<unknown>, firstDelayMs: number, nextDelayMs: () => number, label: string): Stop {
  let timer: NodeJS.Timeout | undefined;
  let isStopped = false;
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      work()
        .catch((error: unknown) => console.error(`${label} failed`, error))
        .finally(() => {
          if (!isStopped) schedule(nextDelayMs());
        });
    }, delayMs).unref();
  };
  schedule(firstDelayMs);
  return () => {
    isStopped = true;
    clearTimeout(timer);
  };
}
