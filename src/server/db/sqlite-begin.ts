import type { Database } from "better-sqlite3";

/**
 * Prisma's SQLite adapter (7.10.0) opens a transaction with `prepare("BEGIN")`, a deferred
 * one: it takes the write lock at its first write. In WAL mode a transaction that read first
 * and then finds another connection has written since cannot take it, and SQLite refuses at
 * once with "database is locked" (the busy timeout does not apply: waiting would not help a
 * transaction whose snapshot is stale). Another process writing the same file (the CLI, a
 * second server, a test seeding its data) made joins and bans fail that way.
 *
 * BEGIN IMMEDIATE takes the write lock when the transaction opens, waiting up to the busy
 * timeout for another writer to finish, so a transaction never holds a stale snapshot. The
 * adapter already runs one transaction at a time on its connection, so this costs nothing there.
 */
export function beginImmediately(db: Database): void {
  const prepare = db.prepare.bind(db);
  db.prepare = (sql: string) => prepare(sql === "BEGIN" ? "BEGIN IMMEDIATE" : sql);
}
