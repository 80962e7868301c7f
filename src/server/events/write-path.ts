import type { Db, Tx } from "~/server/db/client.ts";
import { sqliteWriteAccess, type SqliteWriteAccess } from "~/server/db/client.ts";
import { UnannouncedWriteError } from "~/server/db/event-guard.ts";
import { prismaStatements, sqliteStatements, type Statements } from "~/server/db/statements.ts";

/** One change as the write path runs it: its work in a transaction, then what follows its commit. */
export type WriteJob<T> = {
  work: (tx: Tx, sql: Statements) => Promise<T>;
  /** Called once the change committed, in commit order, before its caller hears the outcome. */
  committed: () => void;
};

/** How changes reach the database: every change of a process goes through its runtime's one write path. */
export type WritePath = {
  /** Runs the job's work in a transaction, alone or together with others, and resolves once it committed. */
  run<T>(job: WriteJob<T>): Promise<T>;
  /** Resolves once no change is waiting or being written (the runtime closes the database after). */
  drain(): Promise<void>;
};

/** Changes written in one transaction at most; more wait for the next. */
const MAX_BATCH = 128;
// A batch holds the one writer; these are Prisma's limits for its transaction, wider than a
// lone change's (5 s) because a batch does the work of many.
const BATCH_TRANSACTION = { maxWait: 10_000, timeout: 30_000 };

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
 * SQLite has one writer, and a change's own cost (the transaction, its BEGIN and COMMIT) is
 * most of a small change's. So changes that arrive while one batch is written wait and go
 * together into the next transaction (group commit); one arriving when none is written goes
 * at once. Each change runs in its own savepoint, in arrival order, so one that fails rolls
 * back alone and the others commit; each is held to its own event (event-guard.ts). A change
 * sees the rows of those before it in its batch, as it would had they committed first.
 */
class GroupCommit implements WritePath {
  readonly #db: Db;
  readonly #sqlite: SqliteWriteAccess;
  #queue: Pending[] = [];
  #writing = false;
  #idle: (() => void)[] = [];

  constructor(db: Db, sqlite: SqliteWriteAccess) {
    this.#db = db;
    this.#sqlite = sqlite;
  }

  run<T>(job: WriteJob<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ job, resolve: resolve as (value: unknown) => void, reject });
      if (this.#writing) return;
      this.#writing = true;
      // Starts after the requests already received have been read: a change on SQLite runs
      // in microtasks only, so starting now would shut out every request behind this one.
      setImmediate(() => void this.#drain());
    });
  }

  /** Writes one batch, then lets the requests that came meanwhile be read before the next. */
  async #drain(): Promise<void> {
    const batch = this.#queue.splice(0, MAX_BATCH);
    const outcomes: Outcome[] = [];
    try {
      await this.#db.$transaction(async (tx) => {
        for (const pending of batch) outcomes.push(await this.#inSavepoint(tx, pending.job));
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
    if (this.#queue.length > 0) setImmediate(() => void this.#drain());
    else {
      this.#writing = false;
      for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  drain(): Promise<void> {
    return this.#writing ? new Promise((resolve) => this.#idle.push(resolve)) : Promise.resolve();
  }

  async #inSavepoint(tx: Tx, job: WriteJob<unknown>): Promise<Outcome> {
    const connection = this.#sqlite.connection();
    const writes = this.#sqlite.open.current;
    if (!writes) throw new Error("The write path's transaction is not the open one.");
    const mark = writes.mark();
    connection.exec("SAVEPOINT change");
    try {
      const value = await job.work(tx, sqliteStatements(connection, writes));
      const unannounced = writes.unannouncedSince(mark);
      if (unannounced.length > 0) throw new UnannouncedWriteError(unannounced);
      connection.exec("RELEASE change");
      return { ok: true, value };
    } catch (error) {
      // Throws on when the savepoint is gone (SQLite ended the transaction): the batch fails.
      connection.exec("ROLLBACK TO change; RELEASE change");
      writes.rollBackTo(mark);
      return { ok: false, error };
    }
  }
}

/** PostgreSQL writes from a pool: each change is its own transaction on a connection of its own. */
class PooledTransactions implements WritePath {
  readonly #db: Db;
  readonly #running = new Set<Promise<unknown>>();

  constructor(db: Db) {
    this.#db = db;
  }

  async run<T>(job: WriteJob<T>): Promise<T> {
    const running = this.#db.$transaction((tx) => job.work(tx, prismaStatements(tx)));
    this.#running.add(running);
    try {
      const value = await running;
      committedAllTheSame(job);
      return value;
    } finally {
      this.#running.delete(running);
    }
  }

  async drain(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}

export function createWritePath(db: Db): WritePath {
  const sqlite = sqliteWriteAccess(db);
  return sqlite ? new GroupCommit(db, sqlite) : new PooledTransactions(db);
}
