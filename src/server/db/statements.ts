import type { Database } from "better-sqlite3";
import type { Prisma } from "~/generated/prisma/client.ts";
import type { Tx } from "./client.ts";
import type { TransactionWrites } from "./event-guard.ts";

/**
 * The statements of a change that runs on every hot write (an event, an audit entry, a
 * message row), outside Prisma's query pipeline: there a raw query costs about 50 µs of CPU
 * and a model query more, while a prepared SQLite statement costs a few. Each is written once
 * as a `Prisma.sql` template, which carries both providers' placeholders, in its domain's
 * `*-queries.ts`, which also turns the rows into the domain's types: SQLite answers booleans
 * as 0 and 1 and dates as text, PostgreSQL (through Prisma) as booleans and Dates.
 */
export type Statements = {
  /** Runs a write; the number of rows it changed. */
  run(query: Prisma.Sql): Promise<number>;
  /** Runs a query (or a write with RETURNING); its rows as the driver answers them. */
  all<T>(query: Prisma.Sql): Promise<T[]>;
};

/** A row of `T`'s columns as the driver answers it, before its `*-queries.ts` maps it to `T`. */
export type ColumnsOf<T> = { [K in keyof T]: unknown };

/** A DateTime column as the driver answers it: ISO text on SQLite, a Date on PostgreSQL. */
export function columnDate(value: unknown): Date {
  return new Date(value as string | Date);
}

/** A nullable DateTime column. */
export function columnDateOrNull(value: unknown): Date | null {
  return value === null ? null : columnDate(value);
}

/** A value as Prisma's SQLite adapter stores it, so rows written here read back the same through Prisma. */
function toSqlite(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value === undefined) throw new TypeError("A statement was given undefined for a value: pass null.");
  return value;
}

/**
 * Statements on the SQLite connection itself, inside the write path's open transaction (the
 * one connection runs one transaction). Writes are told to the event guard, as Prisma's are.
 */
export function sqliteStatements(connection: Database, writes: TransactionWrites): Statements {
  // better-sqlite3 answers at once; a promise keeps one interface with PostgreSQL (a throw becomes its rejection).
  return {
    run: (query) =>
      new Promise((resolve) => {
        const { changes } = connection.prepare(query.sql).bind(query.values.map(toSqlite)).run();
        writes.observe(query.sql, changes);
        resolve(changes);
      }),
    all: <T>(query: Prisma.Sql) =>
      new Promise<T[]>((resolve) => {
        const rows = connection.prepare(query.sql).bind(query.values.map(toSqlite)).all() as T[];
        writes.observe(query.sql, rows.length);
        resolve(rows);
      }),
  };
}

/** PostgreSQL: the same statements as Prisma raw queries in the change's transaction (each is a round trip to the server anyway). */
export function prismaStatements(tx: Tx): Statements {
  return {
    run: (query) => tx.$executeRaw(query),
    all: <T>(query: Prisma.Sql) => tx.$queryRaw<T[]>(query),
  };
}
