import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";

// Three folders below the project root, here and in the bundle testing/twin.ts makes.
const MIGRATIONS = fileURLToPath(new URL("../../../prisma/migrations/sqlite", import.meta.url));

/**
 * A new SQLite database file for a throwaway twin, its tables made by running the SQLite
 * migrations' SQL in order in one transaction: tens of milliseconds, where the migration
 * engine takes a quarter of a second. Nothing records them: the file is the twin's alone and
 * goes with it.
 */
export function createTwinDatabase(file: string): string {
  const folder = MIGRATIONS;
  const migrations = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const database = new Database(file);
  try {
    database.pragma("journal_mode = WAL");
    database.transaction(() => {
      for (const name of migrations) database.exec(readFileSync(join(folder, name, "migration.sql"), "utf8"));
    })();
  } finally {
    database.close();
  }
  return `file:${file}`;
}
