import type { Db } from "~/server/db/client.ts";
import { storedEventOf, type StoredEvent } from "./event-map.ts";
import { outboxHead } from "./outbox-read.ts";

const BATCH = 500;

export type OutboxTail = {
  stop(): void;
  /** The outbox was replaced (a test twin's restore): read on from `head`, its newest event now. */
  followFrom(head: number): void;
};

/**
 * Reads events other processes stored, in outbox order, every `intervalMs`: without Redis
 * this is how a server hears the operator CLI (a revoked token) or another server on the
 * same SQLite file. `isOwn` skips what this process already delivered at commit. On
 * SQLite the outbox order is the commit order; on PostgreSQL a change that commits after
 * a later-numbered one can be missed, which is why several PostgreSQL instances use Redis.
 */
export function tailOutbox(db: Db, options: { intervalMs: number; isOwn: (seq: number) => boolean; deliver: (event: StoredEvent) => void }): OutboxTail {
  const log = (error: unknown) => console.error("[events] reading the outbox failed", error);
  let last: number | null = null;
  // Moves on when the outbox is replaced: a read begun before then is not used.
  let generation = 0;
  let timer: NodeJS.Timeout;
  let isStopped = false;

  async function poll(): Promise<void> {
    const reading = generation;
    if (last === null) {
      // Caches start empty: only what is stored from now on can make them stale.
      const head = await outboxHead(db);
      if (reading === generation) last = head;
      return;
    }
    for (;;) {
      const rows = await db.event.findMany({ where: { seq: { gt: last } }, orderBy: { seq: "asc" }, take: BATCH });
      if (reading !== generation) return;
      for (const row of rows) {
        last = Math.max(last, row.seq);
        if (options.isOwn(row.seq)) continue;
        options.deliver(storedEventOf(row));
      }
      if (rows.length < BATCH) return;
    }
  }

  const schedule = () => {
    timer = setTimeout(() => {
      poll()
        .catch(log)
        .finally(() => {
          if (!isStopped) schedule();
        });
    }, options.intervalMs);
    timer.unref();
  };
  void poll().catch(log).finally(schedule);
  return {
    stop() {
      isStopped = true;
      clearTimeout(timer);
    },
    followFrom(head) {
      generation++;
      last = head;
    },
  };
}
