import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createDb, type Db } from "~/server/db/client.ts";
import { applyMigrations } from "~/server/db/migrate.ts";
import { providerFromUrl } from "~/server/db/provider.ts";

export type EmptyDatabase = { url: string; drop(): Promise<void> };
export type TestDb = { db: Db; url: string; drop(): Promise<void> };

/** Tests only ever touch a database on this machine. */
function assertLocal(url: string): void {
  const host = new URL(url).hostname;
  if (!["localhost", "127.0.0.1", "::1", ""].includes(host)) throw new Error(`Refusing to run tests against a non-local database (${host})`);
}

async function adminQuery(base: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database of the provider under test: a new SQLite file by default, or a new
 * PostgreSQL database on the server of TEST_DATABASE_URL when that is a postgres URL.
 */
export async function createEmptyDatabase(): Promise<EmptyDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  const name = `guildhall_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  if (base && providerFromUrl(base) === "postgresql") {
    assertLocal(base);
    await adminQuery(base, `CREATE DATABASE "${name}"`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    return { url: url.toString(), drop: () => adminQuery(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
  }
  const file = join(tmpdir(), `${name}.db`);
  return {
    url: `file:${file}`,
    drop() {
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
      return Promise.resolve();
    },
  };
}

/** A fresh, migrated database for one test file. */
export async function createTestDb(): Promise<TestDb> {
  const empty = await createEmptyDatabase();
  await applyMigrations(empty.url);
  const db = createDb(empty.url);
  return {
    db,
    url: empty.url,
    async drop() {
      await db.$disconnect();
      await empty.drop();
    },
  };
}
