import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

// The REST bench's databases: a fresh one for Guildhall, and a copy of it once seeded for the
// write floor, so both write into the same tables holding the same rows. On SQLite files in the
// bench's temporary folder; on PostgreSQL databases of their own on the local server.

export type BenchProvider = "sqlite" | "postgres";

/** The PostgreSQL server the bench makes its databases on (`BENCH_POSTGRES_URL` overrides it). */
export const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgresql://root@127.0.0.1:5432/postgres";

export type BenchDatabase = {
  url: string;
  /** A copy of the database as it is now, for the write floor; its URL. */
  copyForFloor(): Promise<string>;
  /** Drops what this made (PostgreSQL); the SQLite files go with the temporary folder. */
  drop(): Promise<void>;
};

export function isBenchProvider(value: string): value is BenchProvider {
  return value === "sqlite" || value === "postgres";
}

export async function createBenchDatabase(provider: BenchProvider, dir: string): Promise<BenchDatabase> {
  if (provider === "sqlite") {
    const file = join(dir, "bench.db");
    return {
      url: `file:${file}`,
      copyForFloor() {
        const copy = join(dir, "write-floor.db");
        const db = new Database(file);
        try {
          db.prepare("VACUUM INTO ?").run(copy);
        } finally {
          db.close();
        }
        return Promise.resolve(`file:${copy}`);
      },
      drop: () => Promise.resolve(),
    };
  }
  const [name, floorName] = postgresNames(process.pid);
  await admin(`CREATE DATABASE "${name}"`);
  return {
    url: urlOf(name),
    async copyForFloor() {
      // A template copy needs no other connection to the template: call it before the server starts.
      await admin(`CREATE DATABASE "${floorName}" TEMPLATE "${name}"`);
      return urlOf(floorName);
    },
    drop: () => dropPostgresBenchDatabases(process.pid),
  };
}

/** The databases of the bench run by process `pid`: Guildhall's and the write floor's copy. */
function postgresNames(pid: number): [string, string] {
  return [`guildhall_bench_${pid}`, `guildhall_bench_${pid}_floor`];
}

function urlOf(database: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.href;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Drops what the bench run by process `pid` made on PostgreSQL, if it is still there. */
export async function dropPostgresBenchDatabases(pid: number): Promise<void> {
  for (const database of postgresNames(pid).reverse()) await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
}
