import type { SqlDriverAdapter, SqlQuery } from "@prisma/driver-adapter-utils";
import type { Database as BetterSqlite3Database } from "better-sqlite3";

// Every reliance on Prisma's driver adapters beyond their public interface, in one place
// (checked against @prisma/adapter-better-sqlite3 and @prisma/adapter-pg 7.10.0).
// prisma-internals.integration-test.ts fails when an upgrade breaks one of these:
// - the SQLite adapter keeps its better-sqlite3 connection in `client`, and calls it as
//   sqlite-statements.ts expects (prepare, bind, reader, columns, raw, all/get/run);
// - the SQL text Prisma writes for model writes names the table as event-guard.ts reads it;
// - the SQLite adapter opens a transaction with `prepare("BEGIN")`, which sqlite-begin.ts
//   makes an immediate one;
// - Prisma ends an interactive transaction with an executeRaw of "COMMIT", where
//   event-guard.ts refuses a commit.
// One more is behaviour, not shape: the SQLite adapter runs queries outside a transaction on
// the open transaction's connection (sqlite-isolation.ts; event-guard.integration-test.ts).

/** The better-sqlite3 connection inside Prisma's SQLite adapter. */
export function sqliteConnectionOf(adapter: SqlDriverAdapter): BetterSqlite3Database {
  const client = (adapter as unknown as { client?: Partial<BetterSqlite3Database> }).client;
  if (typeof client?.prepare !== "function" || typeof client.exec !== "function") {
    throw new Error(
      `Prisma's SQLite adapter (${adapter.adapterName}) no longer keeps its better-sqlite3 connection in \`client\`: see src/server/db/prisma-internals.ts.`,
    );
  }
  return client as BetterSqlite3Database;
}

export type WriteVerb = "INSERT" | "UPDATE" | "DELETE";

// Prisma writes `INSERT INTO "main"."Role" …`, `UPDATE "public"."Guild" …`, `DELETE FROM …`.
const WRITE = /^\s*(INSERT|UPDATE|DELETE)\s+(?:INTO\s+|FROM\s+)?(?:[`"]?\w+[`"]?\.)?[`"]?(\w+)[`"]?/i;

/** The table a statement writes, read from its SQL text; null for any other statement. */
export function writtenTable(sql: string): { verb: WriteVerb; table: string } | null {
  const match = WRITE.exec(sql);
  return match ? { verb: match[1]!.toUpperCase() as WriteVerb, table: match[2]! } : null;
}

/** Whether Prisma is committing its interactive transaction with this statement. */
export function isCommit(query: SqlQuery): boolean {
  return query.sql === "COMMIT";
}

/** What undoes a transaction whose COMMIT is refused: Prisma then only releases the connection. */
export const ROLLBACK: SqlQuery = { sql: "ROLLBACK", args: [], argTypes: [] };
