// Reading the outbox as a log: its head, what a reader missed after a sequence, and whether
// retention has already deleted some of that. The gateway's RESUME and the dashboard's live
// streams both catch up this way.
import type { Db } from "~/server/db/client.ts";
import { storedEventOf, type StoredEvent } from "./event-map.ts";

/** The newest stored event's seq (0 when none). */
export async function outboxHead(db: Db): Promise<number> {
  return (await db.event.aggregate({ _max: { seq: true } }))._max.seq ?? 0;
}

const REPLAY_BATCH = 500;

/** Stored events after `seq` (up to `through` when given), in outbox order, a batch at a time. */
export async function* storedEventsAfter(db: Db, seq: number, through?: number): AsyncGenerator<StoredEvent> {
  let cursor = seq;
  for (;;) {
    const rows = await db.event.findMany({ where: { seq: { gt: cursor, lte: through } }, orderBy: { seq: "asc" }, take: REPLAY_BATCH });
    for (const row of rows) {
      cursor = row.seq;
      yield storedEventOf(row);
    }
    if (rows.length < REPLAY_BATCH) return;
  }
}

/**
 * Whether everything after `seq` can be replayed: "never sent" when `seq` is past the head,
 * "gone" when the retention sweep deleted events after it.
 */
export async function replayAfter(db: Db, seq: number): Promise<"replayable" | "never sent" | "gone"> {
  const { _min, _max } = await db.event.aggregate({ _min: { seq: true }, _max: { seq: true } });
  if (seq > (_max.seq ?? 0)) return "never sent";
  return (_min.seq ?? 0) > seq + 1 ? "gone" : "replayable";
}
