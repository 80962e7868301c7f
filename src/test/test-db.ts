import { randomBytes } from "node:crypto";
import { copyFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { createDb, type Db } from "~/server/db/client.ts";
import { applyMigrations } from "~/server/db/migrate.ts";
import { providerFromUrl, type DbProvider } from "~/server/db/provider.ts";

export type EmptyDatabase = { url: string; drop(): Promise<void> };
export type TestDb = { db: Db; url: string; drop(): Promise<void> };

/** The provider the integration tests run on: PostgreSQL when TEST_DATABASE_URL is a postgres URL, else SQLite. */
export function testProvider(): DbProvider {
  const base = process.env.TEST_DATABASE_URL;
  return base ? providerFromUrl(base) : "sqlite";
}

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
 * A new database of the provider under test: a new SQLite file by default, or a new PostgreSQL
 * database on the server of TEST_DATABASE_URL when that is a postgres URL. Empty, or a copy of
 * `template` (a URL this function made).
 */
export async function createEmptyDatabase(kind = "test", template?: string): Promise<EmptyDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  const name = `guildhall_${kind}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  if (base && testProvider() === "postgresql") {
    assertLocal(base);
    await adminQuery(base, template ? `CREATE DATABASE "${name}" TEMPLATE "${new URL(template).pathname.slice(1)}"` : `CREATE DATABASE "${name}"`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    return { url: url.toString(), drop: () => adminQuery(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
  }
  const file = join(tmpdir(), `${name}.db`);
  if (template) copyFileSync(template.slice("file:".length), file);
  return {
    url: `file:${file}`,
    drop() {
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
      return Promise.resolve();
    },
  };
}

/**
 * A fresh, migrated database: a copy of the run's migrated template (test/database-templates.ts)
 * where the integration projects made one, else migrated here.
 */
export async function createMigratedDatabase(): Promise<EmptyDatabase> {
  const template = inject("migratedTemplateUrl");
  if (template) return createEmptyDatabase("test", template);
  const empty = await createEmptyDatabase();
  await applyMigrations(empty.url);
  return empty;
}

/** A fresh, migrated database for one test file, with a client. */
export async function createTestDb(): Promise<TestDb> {
  const empty = await createMigratedDatabase();
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
