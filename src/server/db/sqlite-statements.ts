import type { Database, Statement } from "better-sqlite3";
import { CACHES } from "~/server/runtime/cache-registry.ts";

type ColumnDefinition = ReturnType<Statement["columns"]>[number];
type Entry = { statement: Statement<unknown[]>; columns: ColumnDefinition[] | null; limitPrefix: string | null };

/** Distinct SQL texts kept; `IN (?, ?, …)` lists of every length are distinct texts. */
const MAX_STATEMENTS = CACHES.sqliteStatements.max;
const LIMIT_OFFSET = " LIMIT ? OFFSET ?";

/**
 * Prisma's SQLite adapter (7.10.0) prepares every query anew and reads its column list
 * each time: `prepare(sql).bind(args)`, then `reader`, `columns()`, `raw().all()` or `run()`.
 * For a 40-column select those cost more than running the query. Worse, the SQLite in
 * better-sqlite3 (built with STAT4) lets the planner look at a bound LIMIT, so binding one
 * expires the statement and every `findUnique`/`findFirst` (`… LIMIT ? OFFSET ?`) is
 * compiled again when it runs: about 50 µs for a guild row instead of 7.
 *
 * This keeps one prepared statement and its columns per SQL text, writes an integer LIMIT
 * into the text (distinct limits are distinct statements), and hands the adapter a one-use
 * view that holds its own arguments, so reuse never mixes two queries' arguments.
 * better-sqlite3 is synchronous, so a statement is never in use twice at once. Columns are
 * read once per statement: the schema does not change under a running process.
 */
export function reusePreparedStatements(db: Database): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Entry>();

  function entryFor(sql: string): Entry {
    let entry = cache.get(sql);
    if (entry) {
      // Least recently used first: move a hit to the end.
      cache.delete(sql);
    } else {
      entry = { statement: prepare(sql), columns: null, limitPrefix: sql.endsWith(LIMIT_OFFSET) ? sql.slice(0, -LIMIT_OFFSET.length) : null };
      if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, entry);
    return entry;
  }

  db.prepare = ((sql: string) => new PreparedQuery(entryFor(sql), entryFor)) as unknown as Database["prepare"];
}

function isInteger(value: unknown): value is bigint | number {
  return typeof value === "bigint" || (typeof value === "number" && Number.isSafeInteger(value));
}

/** What the adapter uses of a statement, bound to one query's arguments. */
class PreparedQuery {
  #entry: Entry;
  #entryFor: (sql: string) => Entry;
  #args: unknown[] = [];
  #raw = false;

  constructor(entry: Entry, entryFor: (sql: string) => Entry) {
    this.#entry = entry;
    this.#entryFor = entryFor;
  }

  get reader(): boolean {
    return this.#entry.statement.reader;
  }

  bind(...params: unknown[]): this {
    // better-sqlite3 spreads array arguments into positional parameters; so do we.
    const args = params.flatMap((param) => (Array.isArray(param) ? (param as unknown[]) : [param]));
    const limit = args.at(-2);
    if (this.#entry.limitPrefix !== null && isInteger(limit)) {
      this.#entry = this.#entryFor(`${this.#entry.limitPrefix} LIMIT ${BigInt(limit)} OFFSET ?`);
      args.splice(-2, 1);
    }
    this.#args = args;
    return this;
  }

  columns(): ColumnDefinition[] {
    this.#entry.columns ??= this.#entry.statement.columns();
    return this.#entry.columns;
  }

  raw(toggle = true): this {
    this.#raw = toggle;
    return this;
  }

  all(): unknown[] {
    return this.#entry.statement.raw(this.#raw).all(...this.#args);
  }

  get(): unknown {
    return this.#entry.statement.raw(this.#raw).get(...this.#args);
  }

  run() {
    return this.#entry.statement.run(...this.#args);
  }
}
