// A ban's delete_message_seconds (spec 4.5): the banned user's messages of that window go, in
// every channel and thread of the guild, with Message Delete Bulk. The ban's own change deletes
// up to IN_BAN of them; when more may remain it leaves a BanMessageDeletion, so the ban answers
// at once and the rest goes in the background, batch by batch. A deletion is claimed with a
// lease renewed per batch, so one whose worker stopped is taken up again by any instance.
import type { Db } from "~/server/db/client.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { deleteMessagesInBulk, userMessagesBetween } from "~/server/messages/message-bulk-delete.ts";
import { repeatWithJitter, type Stop } from "~/server/repeat.ts";
import { idRangeAt, newId } from "~/server/snowflake/snowflake.ts";

/** Messages a ban (or a whole bulk ban) deletes in its own change. */
export const IN_BAN = 500;
const BATCH = 500;
const LEASE_MS = 30_000;
const POLL_MS = 5_000;

/** The ids of a deletion's messages, both ends included. */
export type MessageWindow = { sinceId: string; untilId: string };

/** The messages made from `seconds` before `now` until `now`, by their ids' time. */
export function messageWindow(seconds: number, now: Date): MessageWindow {
  return { sinceId: idRangeAt(new Date(now.getTime() - seconds * 1000)).first, untilId: idRangeAt(now).last };
}

/**
 * Deletes a banned user's messages of the window in the ban's change, at most `budget`; when
 * more remain, leaves the rest to the background, started once the ban commits. Returns how
 * many it deleted.
 */
export async function deleteBannedUserMessages(
  change: Change,
  input: { guildId: string; userId: string; window: MessageWindow; budget: number },
): Promise<number> {
  const { guildId, userId, window, budget } = input;
  const found = await userMessagesBetween(change.tx, { guildId, userId, ...window, limit: budget + 1 });
  const now = found.slice(0, budget);
  await deleteMessagesInBulk(change, now);
  if (found.length > budget) {
    const id = newId();
    await change.tx.banMessageDeletion.create({ data: { id, guildId, userId, ...window } });
    change.afterCommit("[bans] deleting a banned user's messages", (db) => runBanMessageDeletion(db, id));
  }
  return now.length;
}

class LeaseLost extends Error {}

/**
 * Runs a deletion unless a live worker holds it: its messages go batch by batch, each in its
 * own change, then the deletion row. Returns when done, or when another worker took it over.
 */
async function runBanMessageDeletion(db: Db, id: string, now: Date = new Date()): Promise<void> {
  // The lease's expiry is this worker's mark: a worker that takes over sets a later one.
  let lease = new Date(now.getTime() + LEASE_MS);
  const claim = await runChange({ db, actor: null }, ({ tx }) =>
    tx.banMessageDeletion.updateMany({
      where: { id, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
      data: { leaseUntil: lease },
    }),
  );
  if (claim.count === 0) return;
  try {
    for (;;) {
      const isDone = await runChange({ db, actor: null }, async (change) => {
        const job = await change.tx.banMessageDeletion.findFirst({ where: { id, leaseUntil: lease } });
        if (!job) throw new LeaseLost();
        const batch = await userMessagesBetween(change.tx, { ...job, limit: BATCH });
        await deleteMessagesInBulk(change, batch);
        if (batch.length < BATCH) {
          await change.tx.banMessageDeletion.delete({ where: { id } });
          return true;
        }
        const renewed = new Date(Math.max(Date.now(), now.getTime()) + LEASE_MS);
        const held = await change.tx.banMessageDeletion.updateMany({ where: { id, leaseUntil: lease }, data: { leaseUntil: renewed } });
        if (held.count === 0) throw new LeaseLost();
        lease = renewed;
        return false;
      });
      if (isDone) return;
    }
  } catch (error) {
    if (error instanceof LeaseLost) return;
    // The lease lapses and any instance takes the deletion up again where it stands.
    console.error(`[bans] deleting messages of ban deletion ${id} failed`, error);
  }
}

/** Runs the deletions nobody holds (new, or whose worker stopped), a few at a time; answers how many it took up. */
export async function runDueBanMessageDeletions(db: Db, now: Date = new Date()): Promise<number> {
  const due = await db.banMessageDeletion.findMany({
    where: { OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    select: { id: true },
    orderBy: { createdAt: "asc" },
    take: 10,
  });
  for (const { id } of due) await runBanMessageDeletion(db, id, now);
  return due.length;
}

/** Takes up ban message deletions whose worker stopped, every few seconds. */
export function startBanMessageDeletions(db: Db): Stop {
  return repeatWithJitter(() => runDueBanMessageDeletions(db), { intervalMs: POLL_MS, firstDelayMs: POLL_MS, label: "[bans] ban message deletions" });
}
