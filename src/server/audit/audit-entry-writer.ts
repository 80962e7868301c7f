import { Prisma } from "~/generated/prisma/client.ts";
import type { Statements } from "~/server/db/statements.ts";
import { newId } from "~/server/snowflake/snowflake.ts";

// The audit log's row writer, apart from its read side (audit.service.ts): the write path
// (events/change.ts) records entries inside every change, and must not reach the read side's
// permission rules.

export type AuditChange = { key: string; old_value?: unknown; new_value?: unknown };

export type AuditEntryInput = {
  guildId: string;
  userId: string | null;
  actionType: number;
  targetId: string | null;
  changes?: AuditChange[];
  options?: Record<string, string>;
  reason: string | null;
};

export async function recordAuditEntry(sql: Statements, entry: AuditEntryInput): Promise<void> {
  await sql.run(
    Prisma.sql`INSERT INTO "AuditLogEntry" ("id", "guildId", "userId", "actionType", "targetId", "changes", "options", "reason") VALUES (${newId()}, ${entry.guildId}, ${entry.userId}, ${entry.actionType}, ${entry.targetId}, ${entry.changes?.length ? JSON.stringify(entry.changes) : null}, ${entry.options ? JSON.stringify(entry.options) : null}, ${entry.reason})`,
  );
}
