import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, diffToSchema, listMigrations, PROVIDERS } from "./migrate.ts";
import type { DbProvider } from "./provider.ts";

// CI always has PostgreSQL, so an unreachable server fails these tests instead of skipping them.
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://root@127.0.0.1:5432/postgres";
const TIMEOUT = 60_000;

async function onPostgres<T>(run: (client: pg.Client) => Promise<T>, url = POSTGRES_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new Error(`PostgreSQL is not reachable at ${url} (set TEST_POSTGRES_URL): ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function migrationNames(provider: DbProvider): Promise<string[]> {
  return (await listMigrations(provider)).migrationDirectories.map((dir) => dir.path);
}

describe.each(PROVIDERS)("%s migrations", (provider) => {
  beforeAll(async () => {
    if (provider === "postgresql") await onPostgres(() => Promise.resolve());
  });

  it(
    "produce exactly the schema in schema.prisma",
    async () => {
      const drift = await diffToSchema(provider, "migrations", POSTGRES_URL);
      expect(drift, "schema.prisma changed without a migration: run `npm run db:migration -- <name>`").toBe("");
    },
    TIMEOUT,
  );
});

describe("applyMigrations on a fresh SQLite file", () => {
  const dir = mkdtempSync(join(tmpdir(), "guildhall-migrate-"));
  const url = `file:${join(dir, "test.db")}`;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    "applies every migration once and records it",
    async () => {
      const names = await migrationNames("sqlite");
      expect(await applyMigrations(url)).toEqual(names);
      expect(await applyMigrations(url)).toEqual([]);

      const db = new Database(join(dir, "test.db"), { readonly: true });
      try {
        const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'User'").get();
        expect(table).toEqual({ name: "User" });
        const rows = db.prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name").all();
        expect(rows).toEqual(names.map((migration_name) => ({ migration_name })));
      } finally {
        db.close();
      }
    },
    TIMEOUT,
  );
});

describe("applyMigrations on a fresh PostgreSQL database", () => {
  const database = `guildhall_test_${randomUUID().replaceAll("-", "")}`;
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${database}`;

  beforeAll(() => onPostgres((client) => client.query(`CREATE DATABASE "${database}"`)));
  afterAll(() => onPostgres((client) => client.query(`DROP DATABASE IF EXISTS "${database}"`)));

  it(
    "applies every migration once and records it",
    async () => {
      const names = await migrationNames("postgresql");
      expect(await applyMigrations(url.href)).toEqual(names);
      expect(await applyMigrations(url.href)).toEqual([]);

      await onPostgres(async (client) => {
        const table = await client.query(`SELECT to_regclass('"User"')::text AS name`);
        expect(table.rows).toEqual([{ name: '"User"' }]);
        const rows = await client.query("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name");
        expect(rows.rows).toEqual(names.map((migration_name) => ({ migration_name })));
      }, url.href);
    },
    TIMEOUT,
  );
});
