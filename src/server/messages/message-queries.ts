import { Prisma, type Message } from "~/generated/prisma/client.ts";
import type { Statements } from "~/server/db/statements.ts";

/** One statement for a new message: every author posts through it. The columns are the row's keys, so the statement follows the model. */
export async function insertMessageRow(sql: Statements, row: Message): Promise<void> {
  const entries = Object.entries(row);
  const columns = Prisma.join(entries.map(([column]) => Prisma.raw(`"${column}"`)));
  await sql.run(Prisma.sql`INSERT INTO "Message" (${columns}) VALUES (${Prisma.join(entries.map(([, value]) => value))})`);
}

/** The channel's last message is the new one; a thread counts it among its messages when `counted` is 1. */
export async function moveLastMessage(sql: Statements, input: { channelId: string; messageId: string; counted: 0 | 1 }): Promise<void> {
  await sql.run(Prisma.sql`UPDATE "Channel" SET "lastMessageId" = ${input.messageId}, "messageCount" = "messageCount" + ${input.counted},
    "totalMessageSent" = "totalMessageSent" + ${input.counted} WHERE "id" = ${input.channelId}`);
}
