import type { Database } from "better-sqlite3";

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
// Files are named in the statement's text: the connection's prepare keeps statements for reuse (db/sqlite-statements.ts).
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Writes the whole database, as committed now, to `file` (which must not exist): a compact copy, outside any transaction. */
export function copyDatabaseTo(connection: Database, file: string): void {
  connection.exec(`VACUUM INTO ${literal(file)}`);
}

/**
 * The tables whose rows make the database's state: SQLite's own are left out but for the
 * AUTOINCREMENT counters (sqlite_sequence: the outbox's next seq), and so is the migration
 * log. Virtual tables and their shadow tables are left out too: the message search index
 * (FTS5, contentless) follows Message through its triggers as rows go and come.
 */
function tablesOf(connection: Database): string[] {
  const rows = connection.prepare("PRAGMA main.table_list").all() as { name: string; type: string }[];
  return rows
    .filter((row) => row.type === "table" && row.name !== "_prisma_migrations" && (row.name === "sqlite_sequence" || !row.name.startsWith("sqlite_")))
    .map((row) => row.name);
}

/**
 * Replaces every row of the database with those of the copy in `file` (made by
 * copyDatabaseTo from the same schema), in one transaction; `then` runs in it last, on the
 * rows as copied. Foreign keys are off while the rows move, so no delete cascades into rows
 * already copied, and checked in full before the commit: SQLite's running count of deferred
 * violations does not always come back to zero when children are copied before their
 * parents, though every key holds. The counters go last: inserting rows moves them.
 */
export function replaceDatabaseFrom(connection: Database, file: string, then: () => void): void {
  if (connection.inTransaction) throw new Error("A transaction is open on the connection: the database cannot be replaced now.");
  const tables = tablesOf(connection);
  const rows = tables.filter((table) => table !== "sqlite_sequence");
  connection.exec(`ATTACH DATABASE ${literal(file)} AS snapshot`);
  // The setting holds for the connection and cannot change inside a transaction.
  connection.exec("PRAGMA foreign_keys = OFF");
  try {
    connection.exec("BEGIN");
    try {
      for (const table of rows) connection.exec(`DELETE FROM main.${quoted(table)}`);
      for (const table of rows) connection.exec(`INSERT INTO main.${quoted(table)} SELECT * FROM snapshot.${quoted(table)}`);
      if (tables.includes("sqlite_sequence"))
        connection.exec("DELETE FROM main.sqlite_sequence; INSERT INTO main.sqlite_sequence SELECT * FROM snapshot.sqlite_sequence");
      const broken = connection.prepare("PRAGMA main.foreign_key_check").all() as { table: string; parent: string }[];
      if (broken.length > 0) throw new Error(`The snapshot's rows break ${broken.length} foreign keys, the first ${broken[0]!.table} → ${broken[0]!.parent}.`);
      then();
      connection.exec("COMMIT");
    } catch (error) {
      connection.exec("ROLLBACK");
      throw error;
    }
  } finally {
    connection.exec("PRAGMA foreign_keys = ON");
    connection.exec("DETACH DATABASE snapshot");
  }
}
