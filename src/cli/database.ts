import type { Db } from "~/server/db/client.ts";
import { isTableMissing } from "~/server/db/prisma-errors.ts";

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
    if (isTableMissing(error)) {
      throw new Error("The database has no tables yet; run `npm run cli -- db migrate` first.", { cause: error });
    }
    throw error;
  } finally {
    await runtime.close();
  }
}
