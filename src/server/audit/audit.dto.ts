import type { APIAuditLogEntry, GatewayGuildAuditLogEntryCreateDispatchData } from "discord-api-types/v10";
import type { AuditLogEntry } from "~/generated/prisma/client.ts";
import type { AuditChange } from "./audit-entry-writer.ts";

export type AuditLogEntryObject = {
  id: string;
  user_id: string | null;
  target_id: string | null;
  action_type: number;
  changes?: AuditChange[];
  options?: Record<string, string>;
  reason?: string;
};

/** The audit log entry object, as GET /guilds/{guild.id}/audit-logs lists it. */
export function toAuditLogEntryObject(row: AuditLogEntry): AuditLogEntryObject {
  return {
    id: row.id,
    user_id: row.userId,
    target_id: row.targetId,
    action_type: row.actionType,
    ...(row.changes && { changes: JSON.parse(row.changes) as AuditChange[] }),
    ...(row.options && { options: JSON.parse(row.options) as Record<string, string> }),
    ...(row.reason !== null && { reason: row.reason }),
  };
}

/** GUILD_AUDIT_LOG_ENTRY_CREATE: the entry as the audit log lists it, with its guild. */
export function toAuditLogEntryCreate(row: AuditLogEntry): GatewayGuildAuditLogEntryCreateDispatchData {
  // The writers record the platform's change keys and option names; the typings' union of one
  // value type per key is more than a generic diff can be checked against.
  return { ...(toAuditLogEntryObject(row) as APIAuditLogEntry), guild_id: row.guildId };
}
