import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "~/generated/prisma/client.ts";
import { GENERATED_PROVIDER } from "~/generated/provider.ts";
import { databaseUrl, providerFromUrl } from "./provider.ts";

export type Db = PrismaClient;
/** A client or an interactive transaction: what services write through. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** Resolves a `file:` URL against the working directory and makes sure its folder exists. */
export function sqlitePath(url: string): string {
  const path = resolve(url.slice("file:".length));
  mkdirSync(dirname(path), { recursive: true });
  return path;
}

export function createDb(url: string = databaseUrl()): Db {
  const provider = providerFromUrl(url);
  if (provider !== GENERATED_PROVIDER) {
    throw new Error(
      `DATABASE_URL is a ${provider} URL but the Prisma client was generated for ${GENERATED_PROVIDER}; ` +
        "run `npm run db:generate` with this DATABASE_URL.",
    );
  }
  if (provider === "sqlite") {
    return new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: sqlitePath(url) }) });
  }
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}

// The REST server and Next's bundle may load this module twice in one process;
// one client per process keeps one connection pool.
const globalForDb = globalThis as unknown as { guildhallDb?: Db };

export function getDb(): Db {
  globalForDb.guildhallDb ??= createDb();
  return globalForDb.guildhallDb;
}
