import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery } from "@prisma/driver-adapter-utils";
import type { Database } from "better-sqlite3";
import { PrismaClient } from "~/generated/prisma/client.ts";
import { PrismaClient as PostgresPrismaClient } from "~/generated/prisma-postgresql/client.ts";
import { databaseUrl, providerFromUrl, type DbProvider } from "./provider.ts";
import { guardEventWrites, type OpenTransactionWrites } from "./event-guard.ts";
import { sqliteConnectionOf } from "./prisma-internals.ts";
import { beginImmediately } from "./sqlite-begin.ts";
import { isolateFromOpenTransactions } from "./sqlite-isolation.ts";
import { reusePreparedStatements } from "./sqlite-statements.ts";

export type Db = PrismaClient;
/** A client or an interactive transaction: what services write through. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** Resolves a `file:` URL against the working directory and makes sure its folder exists. */
export function sqlitePath(url: string): string {
  const path = resolve(url.slice("file:".length));
  mkdirSync(dirname(path), { recursive: true });
  return path;
}

// WAL lets reads go on while a write commits, and with synchronous=NORMAL a commit is an
// append to the WAL rather than an fsync (about 26 µs instead of 12 ms here). The file
// cannot be corrupted; a power cut (not a crash of the process) may lose the last commits.
const SQLITE_PRAGMAS = "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;";

/** What the write path (events/write-path.ts) reaches under Prisma on SQLite: its one connection and the open transaction's writes. */
export type SqliteWriteAccess = {
  /** The better-sqlite3 connection, once Prisma connected (the write path runs inside a transaction, so it has). */
  connection(): Database;
  readonly open: OpenTransactionWrites;
};

class TunedSqliteAdapter extends PrismaBetterSqlite3 implements SqliteWriteAccess {
  readonly open: OpenTransactionWrites = { current: null };
  #connection: Database | null = null;

  override async connect(): Promise<SqlDriverAdapter> {
    const adapter = await super.connect();
    await adapter.executeScript(SQLITE_PRAGMAS);
    this.#connection = sqliteConnectionOf(adapter);
    reusePreparedStatements(this.#connection);
    beginImmediately(this.#connection);
    return guardEventWrites(isolateFromOpenTransactions(adapter), this.open);
  }

  connection(): Database {
    if (!this.#connection) throw new Error("The SQLite connection is not open yet: Prisma connects on its first query.");
    return this.#connection;
  }
}

const sqliteAccess = new WeakMap<Db, SqliteWriteAccess>();

/** The SQLite connection under a client made by createDb; null on PostgreSQL. */
export function sqliteWriteAccess(db: Db): SqliteWriteAccess | null {
  return sqliteAccess.get(db) ?? null;
}

/** Statements with more bound values than this are not kept prepared (long IN lists: each length is a statement of its own). */
const PREPARED_MAX_VALUES = 20;

/**
 * PostgreSQL parses and plans an unnamed statement on every run. A named one is prepared once
 * per connection and then only bound and run, so the statements every change runs (the outbox
 * insert, savepoints, message rows) cost the server less. The name is the text's digest: one
 * text, one statement.
 */
function statementName(query: SqlQuery): string {
  return query.args.length <= PREPARED_MAX_VALUES ? `gh_${createHash("sha1").update(query.sql).digest("base64url")}` : "";
}

function guardedPg(connectionString: string): SqlDriverAdapterFactory {
  const pg = new PrismaPg({ connectionString }, { statementNameGenerator: statementName });
  return { provider: pg.provider, adapterName: pg.adapterName, connect: async () => guardEventWrites(await pg.connect()) };
}

// Kept on globalThis: Next loads this module more than once per process, and a client made by
// one copy is asked about by another.
const globalForProviders = globalThis as unknown as { guildhallDbProviders?: WeakMap<Db, DbProvider> };
const providers = (globalForProviders.guildhallDbProviders ??= new WeakMap());

/** The provider of a client made by createDb: the few statements that differ per engine ask it. */
export function providerOf(db: Db): DbProvider {
  const provider = providers.get(db);
  if (!provider) throw new Error("This database client was not made by createDb (src/server/db/client.ts).");
  return provider;
}

/** A client for the database of `url`, of its provider: both clients are generated (db/generate.ts), so the URL alone decides. */
export function createDb(url: string = databaseUrl()): Db {
  const provider = providerFromUrl(url);
  let db: Db;
  if (provider === "sqlite") {
    const adapter = new TunedSqliteAdapter({ url: sqlitePath(url) });
    db = new PrismaClient({ adapter });
    sqliteAccess.set(db, adapter);
  } else {
    // One schema, so the two clients' model API is the same; the code is typed against the
    // SQLite one and uses nothing only PostgreSQL's has.
    db = new PostgresPrismaClient({ adapter: guardedPg(url) }) as unknown as Db;
  }
  providers.set(db, provider);
  return db;
}
