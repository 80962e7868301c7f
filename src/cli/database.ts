import type { Db } from "~/server/db/client.ts";

/** Prisma's code for a query on a table that does not exist. */
const TABLE_MISSING = "P2021";

/**
 * Runs `fn` on a client for DATABASE_URL and disconnects (from Redis too). A database without tables has
 * not been migrated, which is worth saying plainly instead of quoting Prisma.
 */
export async function withDatabase<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  // Imported here: the CLI must start before a Prisma client has been generated.
  const { createDb } = await import("~/server/db/client.ts");
  const db = createDb();
  try {
    return await fn(db);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === TABLE_MISSING) {
      throw new Error("The database has no tables yet; run `npm run cli -- db migrate` first.", { cause: error });
    }
    throw error;
  } finally {
    await db.$disconnect();
    // Committed events still on their way to other instances go out before the CLI exits.
    const { closeEventFanout } = await import("~/server/events/fanout.ts");
    const { closeRedis } = await import("~/server/redis/redis.ts");
    await closeEventFanout();
    await closeRedis();
  }
}
