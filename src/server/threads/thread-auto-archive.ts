// Threads archive themselves after auto_archive_duration minutes without activity: since their
// last message, or since they were created or unarchived (`threadActiveAt`). The platform
// records no audit entry for an automatic archive (no one did it); THREAD_UPDATE tells clients.
import { GatewayDispatchEvents } from "discord-api-types/v10";
import type { Prisma } from "~/generated/prisma/client.ts";
import { AUTO_ARCHIVE_DURATIONS } from "~/server/channels/channel.schema.ts";
import type { Db } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { repeatWithJitter, type Stop } from "~/server/repeat.ts";
import { IS_A_THREAD, THREAD_INCLUDE, toThreadObject } from "./thread.dto.ts";

const MINUTE_MS = 60_000;
const BATCH = 200;
const INTERVAL_MS = 60_000;

/** Whether an unarchived thread has been quiet for its auto_archive_duration at `now`: archived already as far as readers go. */
export function isPastAutoArchive(
  row: { threadArchived: boolean | null; threadAutoArchiveDuration: number | null; threadActiveAt: Date | null },
  now: Date,
): boolean {
  if (row.threadArchived !== false || row.threadAutoArchiveDuration === null || row.threadActiveAt === null) return false;
  return row.threadActiveAt.getTime() + row.threadAutoArchiveDuration * MINUTE_MS <= now.getTime();
}

/** Unarchived threads quiet for their duration at `now`: one condition per allowed duration, so the database compares stored times only. */
function dueAt(now: Date): Prisma.ChannelWhereInput {
  return {
    type: IS_A_THREAD,
    threadArchived: false,
    OR: AUTO_ARCHIVE_DURATIONS.map((minutes) => ({
      threadAutoArchiveDuration: minutes,
      threadActiveAt: { lte: new Date(now.getTime() - minutes * MINUTE_MS) },
    })),
  };
}

/**
 * Archives the threads whose inactivity reached their auto_archive_duration, with a Thread
 * Update each. Each archive is a conditional update (still unarchived, still quiet), so when
 * several instances sweep at once every thread is archived, and announced, once; a message
 * posted meanwhile moves its thread's activity and keeps it open. Returns how many this call archived.
 */
export async function sweepInactiveThreads(db: Db, now: Date = new Date()): Promise<number> {
  let archived = 0;
  for (;;) {
    const due = await db.channel.findMany({ where: dueAt(now), select: { id: true }, orderBy: { threadActiveAt: "asc" }, take: BATCH });
    if (due.length === 0) return archived;
    archived += await runChange({ db, actor: null }, async ({ tx, emit }) => {
      let count = 0;
      for (const { id } of due) {
        const won = await tx.channel.updateMany({ where: { id, ...dueAt(now) }, data: { threadArchived: true, threadArchiveTimestamp: now } });
        if (won.count === 0) continue;
        const row = await tx.channel.findUniqueOrThrow({ where: { id }, include: THREAD_INCLUDE });
        const parent = await tx.channel.findUniqueOrThrow({ where: { id: row.parentId! }, select: { type: true } });
        count += 1;
        await emit(GatewayDispatchEvents.ThreadUpdate, toThreadObject(row, parent.type));
      }
      return count;
    });
    if (due.length < BATCH) return archived;
  }
}

/** Archives quiet threads about once a minute, at a random point of it so instances spread out. */
export function startThreadAutoArchive(db: Db): Stop {
  return repeatWithJitter(() => sweepInactiveThreads(db), {
    intervalMs: INTERVAL_MS,
    firstDelayMs: INTERVAL_MS * Math.random(),
    label: "[threads] archiving inactive threads",
  });
}
