import type { Db } from "~/server/db/client.ts";
import { runChange } from "./change.ts";
import { repeatWithJitter, type Stop } from "~/server/repeat.ts";

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
    const seqs = batch.map((event) => event.seq);
    const { count } = await runChange({ db, actor: null }, ({ tx }) => tx.event.deleteMany({ where: { seq: { in: seqs }, createdAt: { lt: cutoff } } }));
    deleted += count;
    if (batch.length < batchSize) return deleted;
  }
}

const INTERVAL_MS = 60 * 60 * 1000;

/**
 * Prunes the outbox about hourly, the first time a minute after start; each run comes at a
 * random point of its hour so instances spread out.
 */
export function startOutboxRetention(db: Db, retentionDays: number): Stop {
  const prune = async () => {
    const count = await pruneOutbox(db, { now: new Date(), retentionDays });
    if (count > 0) console.log(`[events] deleted ${count} stored event(s) older than ${retentionDays} days`);
  };
  return repeatWithJitter(prune, { intervalMs: INTERVAL_MS, firstDelayMs: 60_000, label: "[events] pruning stored events" });
}
