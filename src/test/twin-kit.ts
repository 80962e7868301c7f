import { startTwinServer, type TwinServer, type TwinServerOptions } from "~/server/twin/twin-server.ts";
import { createMigratedDatabase, testProvider } from "./test-db.ts";

/**
 * A twin for a test file, on the provider under test: its own temporary SQLite file by default,
 * or a new PostgreSQL database when TEST_DATABASE_URL is one (test mode's controls run on
 * either; only snapshots need SQLite). stop() also drops that database.
 */
export async function startTestTwin(options: Omit<TwinServerOptions, "databaseUrl"> = {}): Promise<TwinServer> {
  if (testProvider() !== "postgresql") return startTwinServer(options);
  const database = await createMigratedDatabase();
  const twin = await startTwinServer({ ...options, databaseUrl: database.url });
  return { ...twin, stop: () => twin.stop().then(() => database.drop()) };
}
