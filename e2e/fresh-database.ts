import { rmSync } from "node:fs";
import { sqlitePath } from "~/server/db/client.ts";
import { applyMigrations } from "~/server/db/migrate.ts";
import { E2E_DATABASE_URL } from "./e2e-env.ts";

// Run by the playwright config before the server starts: the server opens its database when
// it starts (its runtime), so the run's fresh, migrated database must exist by then.
// The test-mode server's database is made the same way, named by DATABASE_URL.
const url = process.env.DATABASE_URL ?? E2E_DATABASE_URL;
const file = sqlitePath(url);
for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
await applyMigrations(url);
