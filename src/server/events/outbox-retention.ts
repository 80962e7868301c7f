import type { Db } from "~/server/db/client.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 1000;

/**
 * Deletes stored events older than the retention window, oldest first in batches so no
 * statement holds the table long. An idempotent conditional delete: any number of
 * instances may run it at once. Returns how many events it deleted.
 */
export async function pruneOutbox(db: Db, options: { now: Date; retentionDays: number; batchSize?: number }): Promise<number> {
  const cutoff = new Date(options.now.getTime() - options.retentionDays * DAY_MS);
  const batchSize = options.batchSize ?? BATCH;
  let deleted = 0;
  for (;;) {
    const batch = await db.event.findMany({ where: { createdAt: { lt: cutoff } }, select: { seq: true }, orderBy: { createdAt: "asc" }, take: batchSize });
    if (batch.length === 0) return deleted;
    const { count } = await db.event.deleteMany({ where: { seq: { in: batch.map((event) => event.seq) }, createdAt: { lt: cutoff } } });
    deleted += count;
    if (batch.length < batchSize) return deleted;
  }
}

/**
 * Prunes the outbox every `intervalMs` (the first run a minute after start, each one at a
 * random point of its interval so instances spread out); returns the stop function.
 */
export function startOutboxRetention(
  db: Db,
  options: { retentionDays: number; intervalMs?: number; log?: (message: string, error?: unknown) => void },
): () => void {
  const intervalMs = options.intervalMs ?? 60 * 60 * 1000;
  const log = options.log ?? ((message: string, error?: unknown) => (error ? console.error(message, error) : console.log(message)));
  let timer: NodeJS.Timeout;
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      pruneOutbox(db, { now: new Date(), retentionDays: options.retentionDays })
        .then((count) => count > 0 && log(`[events] deleted ${count} stored event(s) older than ${options.retentionDays} days`))
        .catch((error: unknown) => log("[events] pruning stored events failed", error))
        .finally(() => schedule(Math.random() * intervalMs + intervalMs / 2));
    }, delayMs);
    timer.unref();
  };
  schedule(60_000);
  return () => clearTimeout(timer);
}
