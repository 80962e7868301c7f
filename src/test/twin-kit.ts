import { applyMigrations } from "~/server/db/migrate.ts";
import { providerFromUrl } from "~/server/db/provider.ts";
import { startTwinServer, type TwinServer, type TwinServerOptions } from "~/server/twin/twin-server.ts";
import { createEmptyDatabase } from "./test-db.ts";

/**
 * A twin for a test file, on the provider under test: its own temporary SQLite file by default,
 * or a new PostgreSQL database when TEST_DATABASE_URL is one (test mode's controls run on
 * either; only snapshots need SQLite). stop() also drops that database.
 */
export async function startTestTwin(options: Omit<TwinServerOptions, "databaseUrl"> = {}): Promise<TwinServer> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base || providerFromUrl(base) !== "postgresql") return startTwinServer(options);
  const database = await createEmptyDatabase();
  await applyMigrations(database.url);
  const twin = await startTwinServer({ ...options, databaseUrl: database.url });
  return { ...twin, stop: () => twin.stop().then(() => database.drop()) };
}
