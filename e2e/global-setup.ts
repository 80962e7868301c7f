import { rmSync } from "node:fs";
import { applyMigrations } from "~/server/db/migrate.ts";
import { sqlitePath } from "~/server/db/client.ts";
import { E2E_DATABASE_URL } from "./e2e-env.ts";
import { seedOwner } from "./seed.ts";

/**
 * A fresh, migrated database for the run, and one signed-up user with a guild. Playwright
 * has already started the server, but it opens the database only on the first request that
 * needs it, which nothing has made yet.
 */
export default async function globalSetup(): Promise<void> {
  const file = sqlitePath(E2E_DATABASE_URL);
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
  await applyMigrations(E2E_DATABASE_URL);
  const owner = await seedOwner("e2e-owner");
  // Workers inherit the environment: tests read the seeded account from here.
  process.env.E2E_OWNER_EMAIL = owner.email;
  process.env.E2E_OWNER_GUILD_ID = owner.guild.id;
  process.env.E2E_OWNER_GUILD_NAME = owner.guild.name;
}
