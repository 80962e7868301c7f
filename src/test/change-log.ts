// Counts every row a test database changes, with triggers on every table, so a test can
// tell cheaply (one query) whether a request changed anything, and which tables it touched.
import { Prisma } from "~/generated/prisma/client.ts";
import type { Db } from "~/server/db/client.ts";
import { providerFromUrl } from "~/server/db/provider.ts";

const LOG = "_test_change";

/**
 * Columns that note activity rather than state: written in the background by any
 * authenticated call (users/activity.ts) or any read of a lobby (its idle clock), so a
 * refused request may move them.
 */
const ACTIVITY_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  User: ["lastActiveAt"],
  Lobby: ["lastActivityAt", "expiresAt"],
};

export type ChangeLog = {
  /** A mark to compare later changes with. */
  mark(): Promise<number>;
  /** Rows changed since `mark`, per table ({} when none). */
  since(mark: number): Promise<Record<string, number>>;
};

/** Installs the triggers on the database of `url` (after its migrations) and answers its log. */
export async function installChangeLog(db: Db, url: string): Promise<ChangeLog> {
  const postgres = providerFromUrl(url) === "postgresql";
  const tables = postgres
    ? (
        await db.$queryRawUnsafe<{ name: string }[]>(
          `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
        )
      ).map((row) => row.name)
    : await sqliteTables(db);
  const watched = tables.filter((table) => !table.startsWith("_"));

  if (postgres) {
    await db.$executeRawUnsafe(`CREATE TABLE "${LOG}" ("id" BIGSERIAL PRIMARY KEY, "tbl" TEXT NOT NULL)`);
    await db.$executeRawUnsafe(
      `CREATE FUNCTION "${LOG}_row"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "${LOG}" ("tbl") VALUES (TG_TABLE_NAME); RETURN NULL; END $$`,
    );
  } else {
    await db.$executeRawUnsafe(`CREATE TABLE "${LOG}" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "tbl" TEXT NOT NULL)`);
  }
  for (const table of watched) {
    const skip = ACTIVITY_COLUMNS[table];
    const columns = skip ? (await columnsOf(db, table, postgres)).filter((column) => !skip.includes(column)) : null;
    const update = columns ? `UPDATE OF ${columns.map((column) => `"${column}"`).join(", ")}` : "UPDATE";
    for (const [verb, event] of [
      ["ins", "INSERT"],
      ["upd", update],
      ["del", "DELETE"],
    ] as const) {
      const name = `${LOG}_${verb}_${table}`;
      await db.$executeRawUnsafe(
        postgres
          ? `CREATE TRIGGER "${name}" AFTER ${event} ON "${table}" FOR EACH ROW EXECUTE FUNCTION "${LOG}_row"()`
          : `CREATE TRIGGER "${name}" AFTER ${event} ON "${table}" BEGIN INSERT INTO "${LOG}" ("tbl") VALUES ('${table}'); END`,
      );
    }
  }

  return {
    async mark() {
      const [row] = await db.$queryRawUnsafe<{ id: unknown }[]>(`SELECT COALESCE(MAX("id"), 0) AS "id" FROM "${LOG}"`);
      return Number(row!.id);
    },
    async since(mark) {
      const rows = await db.$queryRaw<{ tbl: string; n: unknown }[]>(
        Prisma.sql`SELECT "tbl", COUNT(*) AS "n" FROM ${Prisma.raw(`"${LOG}"`)} WHERE "id" > ${mark} GROUP BY "tbl"`,
      );
      return Object.fromEntries(rows.map((row) => [row.tbl, Number(row.n)]));
    },
  };
}

async function columnsOf(db: Db, table: string, postgres: boolean): Promise<string[]> {
  const rows = postgres
    ? await db.$queryRaw<
        { name: string }[]
      >`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table}`
    : await db.$queryRaw<{ name: string }[]>`SELECT name FROM pragma_table_info(${table})`;
  return rows.map((row) => row.name);
}

/** SQLite's own tables, but for full-text indexes and the tables behind them (only ever written with the rows they index). */
async function sqliteTables(db: Db): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ name: string; sql: string | null }[]>(
    `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
  );
  const virtual = rows.filter((row) => row.sql?.startsWith("CREATE VIRTUAL")).map((row) => row.name);
  return rows.map((row) => row.name).filter((name) => !virtual.some((index) => name === index || name.startsWith(`${index}_`)));
}
