// Target-users jobs (spec 2.1, 3): an uploaded file replaces an invite's list in the
// background. The file is stored in chunks and streamed back through the line reader
// (target-users-csv.ts), so memory stays bounded. The job first checks that every id is a known user (else it fails,
// naming the lines, and the list stays as it was), then replaces the list. A worker claims
// the job with a lease it renews per batch; a job whose worker died is taken up again once
// the lease lapses, and fails after a few tries, so none stays PROCESSING for ever. Each
// batch waits for a later turn of the event loop, so a large file never holds it.
import { setImmediate as nextTurn } from "node:timers/promises";
import { Prisma } from "~/generated/prisma/client.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { repeatEvery, type Stop } from "~/server/repeat.ts";
import { problemList, readTargetUsersCsv } from "./target-users-csv.ts";

export const JOB_STATUS = { UNSPECIFIED: 0, PROCESSING: 1, COMPLETED: 2, FAILED: 3 } as const;

const CHUNK_BYTES = 64 * 1024;
const BATCH = 1000;
const LEASE_MS = 30_000;
/** How often checking the ids renews the lease: well within it. */
const RENEW_MS = 1_000;
const MAX_ATTEMPTS = 3;
const POLL_MS = 5_000;

/** Adds users to an invite's list in the caller's change; ones already on it are left as they are (safe under races). */
export async function insertTargetUsers(tx: Tx, code: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  const rows = userIds.map((userId) => Prisma.sql`(${code}, ${userId})`);
  await tx.$executeRaw`INSERT INTO "InviteTargetUser" ("code", "userId") VALUES ${Prisma.join(rows)} ON CONFLICT DO NOTHING`;
}

/** Stores an uploaded file as the invite's job, replacing an earlier one, ready to process. */
export async function storeTargetUsersJob(db: Db, input: { code: string; file: Buffer; totalUsers: number }): Promise<void> {
  await runChange({ db, actor: null }, async ({ tx }) => {
    await tx.targetUsersJob.deleteMany({ where: { code: input.code } });
    await tx.targetUsersJob.create({ data: { code: input.code, status: JOB_STATUS.PROCESSING, totalUsers: input.totalUsers } });
    for (let index = 0; index * CHUNK_BYTES < input.file.length; index++) {
      const data = new Uint8Array(input.file.subarray(index * CHUNK_BYTES, (index + 1) * CHUNK_BYTES));
      await tx.targetUsersJobChunk.create({ data: { code: input.code, index, data } });
      await nextTurn();
    }
  });
}

/** The stored file, chunk by chunk, one in memory at a time. */
async function* storedChunks(db: Db, code: string): AsyncGenerator<Buffer> {
  for (let index = 0; ; index++) {
    const chunk = await db.targetUsersJobChunk.findUnique({ where: { code_index: { code, index } } });
    if (!chunk) return;
    yield Buffer.from(chunk.data);
  }
}

/** The stored file's ids in batches of BATCH, with the problems of the lines that hold none. */
async function* storedBatches(db: Db, code: string, problems: ReturnType<typeof problemList>): AsyncGenerator<{ line: number; userId: string }[]> {
  let batch: { line: number; userId: string }[] = [];
  for await (const entries of readTargetUsersCsv(storedChunks(db, code))) {
    for (const entry of entries) {
      if ("problem" in entry) {
        problems.note(entry.problem);
        continue;
      }
      batch.push(entry);
      if (batch.length < BATCH) continue;
      yield batch;
      batch = [];
      await nextTurn();
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Processes a job if no live worker holds it: checks every id is a known user, then
 * replaces the invite's list with the file's users in batches, counting processed_users as
 * it goes. Returns when done, failed, or when another worker took the job over.
 */
export async function runTargetUsersJob(db: Db, code: string): Promise<void> {
  const write = <T>(fn: (tx: Tx) => Promise<T>) => runChange({ db, actor: null }, ({ tx }) => fn(tx));
  const now = new Date();
  const claim = await write((tx) =>
    tx.targetUsersJob.updateMany({
      where: { code, status: JOB_STATUS.PROCESSING, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
      data: { leaseUntil: new Date(now.getTime() + LEASE_MS), attempts: { increment: 1 } },
    }),
  );
  if (claim.count === 0) return;
  const job = await db.targetUsersJob.findUniqueOrThrow({ where: { code } });
  const mine = { code, attempts: job.attempts, status: JOB_STATUS.PROCESSING };
  /** Ends the job, and drops its stored file in the same change, if this worker still holds it. */
  const finish = (data: { status: number; errorMessage?: string }) =>
    write(async (tx) => {
      const ended = await tx.targetUsersJob.updateMany({ where: mine, data: { ...data, completedAt: new Date(), leaseUntil: null } });
      if (ended.count === 1) await tx.targetUsersJobChunk.deleteMany({ where: { code } });
    });
  const fail = (errorMessage: string) => finish({ status: JOB_STATUS.FAILED, errorMessage });
  if (job.attempts > MAX_ATTEMPTS) {
    await fail(`Processing was interrupted ${MAX_ATTEMPTS} times.`);
    return;
  }
  /** Renews the lease in the caller's change (counting `processed` users); false once another worker holds the job. */
  const renew = async (tx: Tx, processed = 0): Promise<boolean> => {
    const held = await tx.targetUsersJob.updateMany({
      where: mine,
      data: { processedUsers: { increment: processed }, leaseUntil: new Date(Date.now() + LEASE_MS) },
    });
    return held.count === 1;
  };
  try {
    const problems = problemList();
    // Checking writes nothing but the lease, renewed once a second rather than per batch.
    let renewedAt = performance.now();
    for await (const batch of storedBatches(db, code, problems)) {
      const known = new Set(
        (await db.user.findMany({ where: { id: { in: batch.map((entry) => entry.userId) } }, select: { id: true } })).map((user) => user.id),
      );
      for (const entry of batch) if (!known.has(entry.userId)) problems.note(`Line ${entry.line}: no user has the id ${entry.userId}.`);
      if (performance.now() - renewedAt < RENEW_MS) continue;
      if (!(await write((tx) => renew(tx)))) return;
      renewedAt = performance.now();
    }
    if (problems.count > 0) {
      await fail(problems.lines().join("\n"));
      return;
    }
    // Starting over is safe: the list is replaced as a whole.
    await write(async (tx) => {
      await tx.inviteTargetUser.deleteMany({ where: { code } });
      await tx.targetUsersJob.updateMany({ where: mine, data: { processedUsers: 0 } });
    });
    for await (const batch of storedBatches(db, code, problemList())) {
      const userIds = batch.map((entry) => entry.userId);
      // One change a batch: counted and inserted only while this worker holds the job.
      const held = await write(async (tx) => {
        if (!(await renew(tx, userIds.length))) return false;
        await insertTargetUsers(tx, code, userIds);
        return true;
      });
      if (!held) return;
    }
    await finish({ status: JOB_STATUS.COMPLETED });
  } catch (error) {
    await fail(error instanceof Error ? error.message : String(error));
  }
}

/** Takes up to ten jobs whose worker stopped (their lease lapsed); answers how many it took up. */
export async function runDueTargetUsersJobs(db: Db): Promise<number> {
  const jobs = await db.targetUsersJob.findMany({
    where: { status: JOB_STATUS.PROCESSING, OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }] },
    select: { code: true },
    take: 10,
  });
  for (const job of jobs) await runTargetUsersJob(db, job.code);
  return jobs.length;
}

/** Takes up jobs whose worker stopped (their lease lapsed), every few seconds. */
export function startTargetUsersJobs(db: Db): Stop {
  return repeatEvery(() => runDueTargetUsersJobs(db), { intervalMs: POLL_MS, label: "[invites] target-users jobs" });
}
