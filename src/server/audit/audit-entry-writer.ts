import { Prisma, type AuditLogEntry } from "~/generated/prisma/client.ts";
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

/** Stores the entry and answers its row, for the event that announces it. */
export async function recordAuditEntry(sql: Statements, entry: AuditEntryInput): Promise<AuditLogEntry> {
  const row: AuditLogEntry = {
    id: newId(),
    guildId: entry.guildId,
    userId: entry.userId,
    actionType: entry.actionType,
    targetId: entry.targetId,
    changes: entry.changes?.length ? JSON.stringify(entry.changes) : null,
    options: entry.options ? JSON.stringify(entry.options) : null,
    reason: entry.reason,
  };
  await sql.run(
    Prisma.sql`INSERT INTO "AuditLogEntry" ("id", "guildId", "userId", "actionType", "targetId", "changes", "options", "reason") VALUES (${row.id}, ${row.guildId}, ${row.userId}, ${row.actionType}, ${row.targetId}, ${row.changes}, ${row.options}, ${row.reason})`,
  );
  return row;
}
