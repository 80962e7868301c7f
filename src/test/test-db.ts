import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createDb, type Db } from "~/server/db/client.ts";
import { applyMigrations } from "~/server/db/migrate.ts";
import { providerFromUrl } from "~/server/db/provider.ts";

export type TestDb = { db: Db; url: string; drop(): Promise<void> };

/** Tests only ever touch a database on this machine. */
function assertLocal(url: string): void {
  const host = new URL(url).hostname;
  if (!["localhost", "127.0.0.1", "::1", ""].includes(host)) throw new Error(`Refusing to run tests against a non-local database (${host})`);
}

/**
 * A fresh, migrated database for one test file: a new SQLite file by default, or a new
 * PostgreSQL database on the server of TEST_DATABASE_URL when that is a postgres URL.
 */
export async function createTestDb(): Promise<TestDb> {
  const base = process.env.TEST_DATABASE_URL;
  const name = `guildhall_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  if (base && providerFromUrl(base) === "postgresql") {
    assertLocal(base);
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    await applyMigrations(url.toString());
    const db = createDb(url.toString());
    return {
      db,
      url: url.toString(),
      async drop() {
        await db.$disconnect();
        const client = new pg.Client({ connectionString: base });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await client.end();
      },
    };
  }
  const file = join(tmpdir(), `${name}.db`);
  const url = `file:${file}`;
  await applyMigrations(url);
  const db = createDb(url);
  return {
    db,
    url,
    async drop() {
      await db.$disconnect();
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
    },
  };
}
