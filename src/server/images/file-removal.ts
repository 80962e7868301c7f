// Stored files go with what holds them (DESIGN.md "Background work and time"). A change that
// deletes or replaces a file's holder names the file in StoredFileDeletion in its own
// transaction, so the CDN answers 404 for it from that commit on. Once committed the files are
// removed; a removal that failed, or whose process stopped, is taken up by the background sweep.
// A removal takes its row and the file together in one transaction, and only if the row is
// still there: storing the same path again (an icon set back) deletes the row first, so the
// file stays. Two instances taking the same rows remove them once.
import { randomUUID } from "node:crypto";
import { Prisma } from "~/generated/prisma/client.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { repeatWithJitter, type Stop } from "~/server/repeat.ts";

const BATCH = 500;
/** How long a removal that failed waits before the sweep tries it again. */
export const REMOVAL_RETRY_MS = 60_000;
const SWEEP_INTERVAL_MS = 60_000;

/** Where the files' bytes are: the Image table. Removal goes through here (tests make it fail). */
export const fileStore = {
  async remove(tx: Tx, paths: readonly string[]): Promise<void> {
    await tx.image.deleteMany({ where: { path: { in: [...paths] } } });
  },
};

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Files (store paths) that go with the caller's change: 404 from its commit, removed after it. */
export async function removeStoredFiles(change: Change, paths: Iterable<string>): Promise<void> {
  const rows = [...new Set(paths)].map((path) => ({ id: randomUUID(), path }));
  if (rows.length === 0) return;
  for (const chunk of chunks(rows, BATCH)) await change.tx.storedFileDeletion.createMany({ data: chunk });
  const ids = rows.map((row) => row.id);
  change.afterCommit("[files] removing deleted files", (db) => removeFiles(db, ids));
}

/** Keeps a file being stored again (an icon set back): its pending removal, if any, is dropped. */
export async function keepStoredFile(tx: Tx, path: string): Promise<void> {
  await tx.storedFileDeletion.deleteMany({ where: { path } });
}

/** Whether a file's removal is pending: the CDN answers 404 for it already. */
export async function isRemovalPending(db: Tx, path: string): Promise<boolean> {
  return (await db.storedFileDeletion.findFirst({ where: { path }, select: { id: true } })) !== null;
}

/**
 * Removes the files of these pending removals, a batch per transaction: the rows still there
 * are deleted with their files. A batch that fails is left for the sweep, after a pause.
 */
async function removeFiles(db: Db, ids: readonly string[], now = new Date()): Promise<number> {
  let removed = 0;
  for (const batch of chunks(ids, BATCH)) {
    try {
      removed += await runChange({ db, actor: null }, async ({ tx }) => {
        // The rows this transaction deleted are the ones it removes files for; on PostgreSQL they
        // stay locked until commit, so a concurrent store of the same path waits, then keeps its file.
        const taken = await tx.$queryRaw<{ path: string }[]>`
          DELETE FROM "StoredFileDeletion" WHERE "id" IN (${Prisma.join(batch)}) RETURNING "path"`;
        if (taken.length > 0) await fileStore.remove(tx, [...new Set(taken.map((row) => row.path))]);
        return taken.length;
      });
    } catch (error) {
      console.error("[files] removing deleted files failed; the sweep tries again", error);
      const retryAt = new Date(now.getTime() + REMOVAL_RETRY_MS);
      await runChange({ db, actor: null }, ({ tx }) => tx.storedFileDeletion.updateMany({ where: { id: { in: batch } }, data: { retryAt } }));
    }
  }
  return removed;
}

/**
 * Removes pending files whose removal is due (new, or past its retry pause), oldest first.
 * Returns how many this call removed.
 */
export async function sweepStoredFiles(db: Db, now: Date = new Date()): Promise<number> {
  let removed = 0;
  for (;;) {
    const due = await db.storedFileDeletion.findMany({
      where: { OR: [{ retryAt: null }, { retryAt: { lte: now } }] },
      select: { id: true },
      orderBy: { createdAt: "asc" },
      take: BATCH,
    });
    if (due.length === 0) return removed;
    const done = await removeFiles(
      db,
      due.map((row) => row.id),
      now,
    );
    removed += done;
    // Failed batches wait for their retry time, so the next read finds other rows or none.
    if (due.length < BATCH || done === 0) return removed;
  }
}

/** Sweeps pending file removals about once a minute, at a random point so instances spread out. */
export function startStoredFileSweep(db: Db): Stop {
  return repeatWithJitter(() => sweepStoredFiles(db), {
    intervalMs: SWEEP_INTERVAL_MS,
    firstDelayMs: SWEEP_INTERVAL_MS * Math.random(),
    label: "[files] sweeping deleted files",
  });
}
