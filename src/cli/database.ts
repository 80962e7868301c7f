import type { Db } from "~/server/db/client.ts";

/** Prisma's code for a query on a table that does not exist. */
const TABLE_MISSING = "P2021";

/**
 * Runs `fn` on the database of DATABASE_URL in a runtime without background work, then
 * closes it: committed events still on their way to other instances go out before the CLI
 * exits. A database without tables has not been migrated, which is worth saying plainly
 * instead of quoting Prisma.
 */
export async function withDatabase<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  // Imported here: the CLI must start before a Prisma client has been generated.
  const { createRuntime } = await import("~/server/runtime/create-runtime.ts");
  const runtime = createRuntime();
  try {
    return await fn(runtime.db);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === TABLE_MISSING) {
      throw new Error("The database has no tables yet; run `npm run cli -- db migrate` first.", { cause: error });
    }
    throw error;
  } finally {
    await runtime.close();
  }
}
