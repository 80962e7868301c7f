import { Prisma } from "~/generated/prisma/client.ts";
import { DROPS_NO_CACHE } from "~/server/db/event-guard.ts";
import type { Statements } from "~/server/db/statements.ts";

/**
 * Stores an event in the outbox; its seq. Every change runs this for each event it emits.
 * `dropsNoCache`: the event announces none of the change's writes to the event guard.
 */
export async function insertEvent(
  sql: Statements,
  event: { type: string; guildId: string | null; data: string; createdAt: Date },
  dropsNoCache = false,
): Promise<number> {
  const insert = Prisma.sql`INSERT INTO "Event" ("type", "guildId", "data", "createdAt") VALUES (${event.type}, ${event.guildId}, ${event.data}, ${event.createdAt}) RETURNING "seq"`;
  const [row] = await sql.all<{ seq: number | bigint }>(dropsNoCache ? Prisma.sql`${insert} ${Prisma.raw(DROPS_NO_CACHE)}` : insert);
  return Number(row!.seq);
}
