import type { SqlDriverAdapter, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { isCommit, ROLLBACK, writtenTable, type WriteVerb } from "./prisma-internals.ts";

/**
 * Cached state (state/state-cache-store.ts) is dropped only by committed events, so a write to
 * the tables it is read from must come with an event in the same transaction. This guard
 * sits between Prisma and the driver and refuses to commit such a write without one, so a
 * service that forgets its event fails loudly (and leaves nothing behind) instead of
 * leaving stale caches. Which guild the event names is the service's to get right.
 */
export const GUARDED_WRITES: Readonly<Record<string, ReadonlySet<WriteVerb>>> = {
  Guild: new Set(["INSERT", "UPDATE", "DELETE"]),
  Role: new Set(["INSERT", "UPDATE", "DELETE"]),
  Channel: new Set(["INSERT", "UPDATE", "DELETE"]),
  PermissionOverwrite: new Set(["INSERT", "UPDATE", "DELETE"]),
  Member: new Set(["INSERT", "UPDATE", "DELETE"]),
  MemberRole: new Set(["INSERT", "UPDATE", "DELETE"]),
  // A guild's stickers are part of its cached state. Its emojis are too, but Emoji rows also
  // hold application emojis, whose changes no one hears of (no event, as on the platform).
  Sticker: new Set(["INSERT", "UPDATE", "DELETE"]),
  // Not cached, but every change to them is an event others act on.
  Ban: new Set(["INSERT", "UPDATE", "DELETE"]),
  VoiceState: new Set(["INSERT", "UPDATE", "DELETE"]),
  Invite: new Set(["INSERT", "UPDATE", "DELETE"]),
  // Message Create / Update / Delete reach every reader of the channel.
  Message: new Set(["INSERT", "UPDATE", "DELETE"]),
  // Thread membership decides who sees private threads; the active-thread list caches it per guild.
  ThreadMember: new Set(["INSERT", "UPDATE", "DELETE"]),
  Integration: new Set(["INSERT", "UPDATE", "DELETE"]),
  // Webhooks Update tells clients to refetch a channel's webhooks.
  Webhook: new Set(["INSERT", "UPDATE", "DELETE"]),
  // Lobby events reach the members' clients. Not part of them: a lobby's idle clock, which
  // every operation moves (a Lobby UPDATE), and a lobby message's forwarding outcome.
  Lobby: new Set(["INSERT", "DELETE"]),
  LobbyMember: new Set(["INSERT", "UPDATE", "DELETE"]),
  LobbyMessage: new Set(["INSERT", "DELETE"]),
  // New tokens, users and applications are not cached yet; changing what is cached is guarded.
  Token: new Set(["UPDATE", "DELETE"]),
  Application: new Set(["UPDATE", "DELETE"]),
  User: new Set(["DELETE"]),
};
const EVENT_TABLE = "Event";

/**
 * Ends the SQL of an event that drops no cache (an audit entry announced): it does not announce
 * the change's writes, so a change that writes cached state and only audits it still fails.
 */
export const DROPS_NO_CACHE = "/* drops no cache */";

function isGuarded(write: { verb: WriteVerb; table: string }): boolean {
  return GUARDED_WRITES[write.table]?.has(write.verb) ?? false;
}

export class UnannouncedWriteError extends Error {
  constructor(tables: Iterable<string>) {
    super(
      `Cached state written without an event (${[...tables].join(", ")}): make the change through runChange and emit its event, ` +
        "or every instance's caches keep the old state.",
    );
    this.name = "UnannouncedWriteError";
  }
}

/**
 * What one transaction wrote so far. A batch of changes in one transaction (events/write-path.ts)
 * marks where each change starts, asks what the change wrote, and forgets a change it rolled
 * back to its savepoint, so each change is held to its own event.
 */
export class TransactionWrites {
  // What each write that changed rows wrote, in order: a guarded table, or null for an event.
  #writes: (string | null)[] = [];

  /** A statement that changed no rows wrote nothing (a conditional delete that lost a race). */
  observe(sql: string, rowsChanged: number): void {
    const write = writtenTable(sql);
    if (!write || rowsChanged === 0) return;
    if (write.table === EVENT_TABLE && write.verb === "INSERT") {
      if (!sql.endsWith(DROPS_NO_CACHE)) this.#writes.push(null);
    } else if (isGuarded(write)) this.#writes.push(write.table);
  }

  /** Where a change starts. */
  mark(): number {
    return this.#writes.length;
  }

  /** Guarded tables written since `mark` when no event was stored since then. */
  unannouncedSince(mark: number): string[] {
    const since = this.#writes.slice(mark);
    return since.includes(null) ? [] : [...new Set(since as string[])];
  }

  /** Forgets what was written since `mark` (the change was rolled back to its savepoint). */
  rollBackTo(mark: number): void {
    this.#writes.length = mark;
  }
}

/** Where the write path finds the open transaction's writes on SQLite (one transaction at a time). */
export type OpenTransactionWrites = { current: TransactionWrites | null };

const SAVEPOINT = /^\s*(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)\s+\w+\s*$/i;

function guardTransaction(tx: Transaction, open: OpenTransactionWrites | undefined): Transaction {
  const writes = new TransactionWrites();
  // Where each open savepoint started: a batch's changes (events/write-path.ts on
  // PostgreSQL) are each held to their own event when their savepoint is released.
  const savepoints: number[] = [];
  const throughSavepoints = (query: SqlQuery) => {
    const verb = SAVEPOINT.exec(query.sql)?.[1]?.toUpperCase();
    if (verb === "SAVEPOINT") savepoints.push(writes.mark());
    else if (verb === "ROLLBACK TO SAVEPOINT") writes.rollBackTo(savepoints.at(-1) ?? 0);
    else if (verb === "RELEASE SAVEPOINT") {
      const unannounced = writes.unannouncedSince(savepoints.at(-1) ?? 0);
      if (unannounced.length > 0) throw new UnannouncedWriteError(unannounced);
      savepoints.pop();
    }
  };
  if (open) open.current = writes;
  const done = () => {
    if (open?.current === writes) open.current = null;
  };
  const observe = (query: SqlQuery, rowsChanged: number) => writes.observe(query.sql, rowsChanged);
  const guarded: Transaction = {
    provider: tx.provider,
    adapterName: tx.adapterName,
    get options() {
      return tx.options;
    },
    async queryRaw(query) {
      const result = await tx.queryRaw(query);
      observe(query, result.rows.length);
      return result;
    },
    async executeRaw(query) {
      throughSavepoints(query);
      const unannounced = isCommit(query) ? writes.unannouncedSince(0) : [];
      if (unannounced.length > 0) {
        // Prisma only releases the connection when its commit fails: the rollback happens here.
        done();
        await tx.executeRaw(ROLLBACK);
        throw new UnannouncedWriteError(unannounced);
      }
      const changed = await tx.executeRaw(query);
      observe(query, changed);
      return changed;
    },
    commit: () => tx.commit().finally(done),
    rollback: () => tx.rollback().finally(done),
  };
  if (tx.createSavepoint) guarded.createSavepoint = (name) => tx.createSavepoint!(name);
  if (tx.rollbackToSavepoint) guarded.rollbackToSavepoint = (name) => tx.rollbackToSavepoint!(name);
  if (tx.releaseSavepoint) guarded.releaseSavepoint = (name) => tx.releaseSavepoint!(name);
  return guarded;
}

/**
 * Wraps a driver adapter so that guarded writes commit only together with an event. `open`
 * (SQLite) is told each transaction's writes while it is open.
 */
export function guardEventWrites(adapter: SqlDriverAdapter, open?: OpenTransactionWrites): SqlDriverAdapter {
  // A statement outside a transaction commits alone, so it can never carry an event.
  const standalone = (query: SqlQuery) => {
    const write = writtenTable(query.sql);
    return write && isGuarded(write) ? new UnannouncedWriteError([write.table]) : null;
  };
  const guarded: SqlDriverAdapter = {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw(query) {
      const refused = standalone(query);
      return refused ? Promise.reject(refused) : adapter.queryRaw(query);
    },
    executeRaw(query) {
      const refused = standalone(query);
      return refused ? Promise.reject(refused) : adapter.executeRaw(query);
    },
    executeScript: (script) => adapter.executeScript(script),
    startTransaction: async (isolationLevel) => guardTransaction(await adapter.startTransaction(isolationLevel), open),
    dispose: () => adapter.dispose(),
  };
  if (adapter.getConnectionInfo) guarded.getConnectionInfo = () => adapter.getConnectionInfo!();
  return guarded;
}
