import type { Db, Tx } from "~/server/db/client.ts";
import { sqliteWriteAccess, type SqliteWriteAccess } from "~/server/db/client.ts";
import { UnannouncedWriteError } from "~/server/db/event-guard.ts";
import { prismaStatements, sqliteStatements, type Statements } from "~/server/db/statements.ts";

/** One change as the write path runs it: its work in a transaction, then what follows its commit. */
type WriteJob<T> = {
  work: (tx: Tx, sql: Statements) => Promise<T>;
  /** Called once the change committed, in commit order, before its caller hears the outcome. */
  committed: () => void;
};

/** How changes reach the database: every change of a process goes through its runtime's one write path. */
export type WritePath = {
  /** Runs the job's work in a transaction, together with the changes that arrived with it, and resolves once it committed. */
  run<T>(job: WriteJob<T>): Promise<T>;
  /** Resolves once no change is waiting or being written (the runtime closes the database after). */
  drain(): Promise<void>;
  /**
   * Runs `fn` with the database to itself (a test twin's snapshot and restore): once the batch
   * being written committed, and while it runs no batch starts; changes arriving meanwhile wait
   * and go after it. One section at a time, in call order.
   */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T>;
};

/** Changes written in one transaction at most; more wait for the next. */
const MAX_BATCH = 128;
// Prisma's limits for a batch's transaction, wider than a lone change's (5 s) because a
// batch does the work of many.
const BATCH_TRANSACTION = { maxWait: 10_000, timeout: 30_000 };

/** One change's place in its batch: a savepoint, the statements it runs, and how it ends. */
type ChangeScope = {
  sql: Statements;
  /** Keeps the change (refused when it wrote cached state without its event). */
  release(): Promise<void>;
  /** Undoes the change alone; throws when the transaction itself is gone, and the batch fails. */
  rollBack(): Promise<void>;
};

/**
 * SQLite: savepoints on the one connection, inside the open transaction, at a few µs each;
 * the event guard holds each change to its own event.
 */
function sqliteScope(sqlite: SqliteWriteAccess): ChangeScope {
  const connection = sqlite.connection();
  const writes = sqlite.open.current;
  if (!writes) throw new Error("The write path's transaction is not the open one.");
  const mark = writes.mark();
  connection.exec("SAVEPOINT change");
  return {
    sql: sqliteStatements(connection, writes),
    release() {
      const unannounced = writes.unannouncedSince(mark);
      if (unannounced.length > 0) return Promise.reject(new UnannouncedWriteError(unannounced));
      connection.exec("RELEASE change");
      return Promise.resolve();
    },
    rollBack() {
      connection.exec("ROLLBACK TO change; RELEASE change");
      writes.rollBackTo(mark);
      return Promise.resolve();
    },
  };
}

/**
 * PostgreSQL: savepoints in the batch's transaction (a failed statement aborts only up to
 * its savepoint). The event guard sees them and holds each change to its own event.
 */
async function postgresScope(tx: Tx): Promise<ChangeScope> {
  await tx.$executeRawUnsafe("SAVEPOINT change");
  return {
    sql: prismaStatements(tx),
    release: async () => void (await tx.$executeRawUnsafe("RELEASE SAVEPOINT change")),
    async rollBack() {
      await tx.$executeRawUnsafe("ROLLBACK TO SAVEPOINT change");
      await tx.$executeRawUnsafe("RELEASE SAVEPOINT change");
    },
  };
}

/** Runs what follows a commit; the change stands whatever happens there, so its caller hears it committed and a failure is logged. */
function committedAllTheSame(job: WriteJob<unknown>): void {
  try {
    job.committed();
  } catch (error) {
    console.error("delivering a committed change failed", error);
  }
}

type Pending = { job: WriteJob<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void };
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * A change's own cost (its transaction, BEGIN and COMMIT, and on PostgreSQL the flush of its
 * COMMIT and the row locks it holds until then) used to be most of a small change's. So
 * changes that arrive while a batch is written wait and go together into the next
 * transaction (group commit); one arriving when none is written goes at once. Each change
 * runs in its own savepoint, in arrival order, so one that fails rolls back alone and the
 * others commit. A change sees the rows of those before it in its batch, as it would had they
 * committed first.
 */
class GroupCommit implements WritePath {
  readonly #db: Db;
  readonly #scope: (tx: Tx) => ChangeScope | Promise<ChangeScope>;
  #queue: Pending[] = [];
  /** One batch is written at a time. */
  #writing = false;
  #scheduled = false;
  #idle: (() => void)[] = [];
  /** Exclusive sections waiting or running: no batch starts while there is one. */
  #held = 0;
  #sections: Promise<unknown> = Promise.resolve();
  /** Told when the batch being written ended (exclusive sections wait for it). */
  #written: (() => void)[] = [];

  constructor(db: Db, scope: (tx: Tx) => ChangeScope | Promise<ChangeScope>) {
    this.#db = db;
    this.#scope = scope;
  }

  run<T>(job: WriteJob<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ job, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  drain(): Promise<void> {
    return this.#writing || this.#queue.length > 0 ? new Promise((resolve) => this.#idle.push(resolve)) : Promise.resolve();
  }

  exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    this.#held++;
    const section = this.#sections.then(async () => {
      if (this.#writing) await new Promise<void>((resolve) => this.#written.push(resolve));
      return fn();
    });
    this.#sections = section.catch(() => undefined);
    return section.finally(() => {
      this.#held--;
      this.#schedule();
    });
  }

  // A batch starts after the requests already received have been read: a change on SQLite
  // runs in microtasks only, so starting at once would shut out every request behind it.
  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0 || this.#writing || this.#held > 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      // An exclusive section began after this batch was scheduled: it goes first.
      if (this.#held > 0) return;
      void this.#write(this.#queue.splice(0, MAX_BATCH));
      this.#schedule();
    });
  }

  async #write(batch: Pending[]): Promise<void> {
    this.#writing = true;
    const outcomes: Outcome[] = [];
    try {
      await this.#db.$transaction(async (tx) => {
        for (const pending of batch) outcomes.push(await this.#inScope(tx, pending.job));
      }, BATCH_TRANSACTION);
    } catch (error) {
      // The batch did not commit (its COMMIT failed, or a savepoint could not be undone): no change of it stands.
      batch.forEach((pending, i) => pending.reject(outcomes[i]?.ok === false ? outcomes[i].error : error));
      outcomes.length = 0;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (!outcome) return;
      if (!outcome.ok) return pending.reject(outcome.error);
      committedAllTheSame(pending.job);
      pending.resolve(outcome.value);
    });
    this.#writing = false;
    for (const resolve of this.#written.splice(0)) resolve();
    this.#schedule();
    if (this.#queue.length === 0) for (const resolve of this.#idle.splice(0)) resolve();
  }

  async #inScope(tx: Tx, job: WriteJob<unknown>): Promise<Outcome> {
    const scope = await this.#scope(tx);
    try {
      const value = await job.work(tx, scope.sql);
      await scope.release();
      return { ok: true, value };
    } catch (error) {
      await scope.rollBack();
      return { ok: false, error };
    }
  }
}

/**
 * One batch at a time on both: SQLite has one writer, and on PostgreSQL batches in flight
 * together could deadlock on the rows they hold, failing every change of one.
 */
export function createWritePath(db: Db): WritePath {
  const sqlite = sqliteWriteAccess(db);
  return sqlite ? new GroupCommit(db, () => sqliteScope(sqlite)) : new GroupCommit(db, postgresScope);
}
