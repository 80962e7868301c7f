import { Prisma } from "~/generated/prisma/client.ts";
import type { Statements } from "~/server/db/statements.ts";

/** Stores an event in the outbox; its seq. Every change runs this for each event it emits. */
export async function insertEvent(sql: Statements, event: { type: string; guildId: string | null; data: string; createdAt: Date }): Promise<number> {
  const [row] = await sql.all<{ seq: number | bigint }>(
    Prisma.sql`INSERT INTO "Event" ("type", "guildId", "data", "createdAt") VALUES (${event.type}, ${event.guildId}, ${event.data}, ${event.createdAt}) RETURNING "seq"`,
  );
  return Number(row!.seq);
}
