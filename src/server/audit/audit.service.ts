import { enforce } from "~/server/permissions/denial.ts";
import { auditLogDenial } from "~/server/guilds/guild-section-rules.ts";
import type { ServiceContext } from "~/server/context.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import { toCommandObject } from "~/server/commands/command.dto.ts";
import { AuditLogEvent } from "discord-api-types/v10";
import type { Db } from "~/server/db/client.ts";
import { AUDIT_LOG_LIMIT_DEFAULT, type TAuditLogDashboardQuery, type TAuditLogQuery } from "./audit.schema.ts";
import type { AuditChange } from "./audit-entry-writer.ts";
import { toAuditLogEntryObject, type AuditLogEntryObject } from "./audit.dto.ts";

/** The audit `changes` between two wire objects, for the keys that differ. */
export function diffChanges(before: object, after: object, keys: readonly string[]): AuditChange[] {
  const changes: AuditChange[] = [];
  for (const key of keys) {
    const oldValue = (before as Record<string, unknown>)[key];
    const newValue = (after as Record<string, unknown>)[key];
    if (JSON.stringify(oldValue) === JSON.stringify(newValue)) continue;
    const change: AuditChange = { key };
    if (oldValue !== undefined && oldValue !== null) change.old_value = oldValue;
    if (newValue !== undefined && newValue !== null) change.new_value = newValue;
    changes.push(change);
  }
  return changes;
}

/**
 * One page of a guild's entries, newest first; with `after` the page after that id comes
 * oldest first, as the platform orders it. The caller has checked VIEW_AUDIT_LOG.
 */
export async function findAuditEntries(db: Db, guildId: string, query: TAuditLogDashboardQuery): Promise<AuditLogEntryObject[]> {
  const ascending = query.after !== undefined && query.before === undefined;
  const rows = await db.auditLogEntry.findMany({
    where: {
      guildId,
      ...(query.user_id && { userId: query.user_id }),
      ...(query.target_id && { targetId: query.target_id }),
      ...(query.action_type !== undefined && { actionType: query.action_type }),
      id: { ...(query.before && { lt: query.before }), ...(query.after && { gt: query.after }) },
    },
    // Generated ids all have 19 digits until 2090, so text order is numeric order.
    orderBy: { id: ascending ? "asc" : "desc" },
    take: query.limit ?? AUDIT_LOG_LIMIT_DEFAULT,
  });
  return rows.map(toAuditLogEntryObject);
}

/** GET /guilds/{guild.id}/audit-logs: needs VIEW_AUDIT_LOG. */
export async function getGuildAuditLog(ctx: ServiceContext, input: { guildId: string; query: TAuditLogQuery }) {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(auditLogDenial(access));
  const rows = await findAuditEntries(ctx.db, input.guildId, input.query);
  const userIds = [...new Set(rows.flatMap((r) => (r.user_id ? [r.user_id] : [])))];
  const users = await ctx.db.user.findMany({ where: { id: { in: userIds } } });
  // The commands whose permissions the entries changed (an app-wide entry names the application, no command).
  const commandIds = [
    ...new Set(rows.flatMap((r) => (r.action_type === AuditLogEvent.ApplicationCommandPermissionUpdate && r.target_id ? [r.target_id] : []))),
  ];
  const commands = commandIds.length > 0 ? await ctx.db.applicationCommand.findMany({ where: { id: { in: commandIds } } }) : [];
  return {
    audit_log_entries: rows,
    users: users.map(toUserObject),
    integrations: [],
    webhooks: [],
    guild_scheduled_events: [],
    threads: [],
    application_commands: commands.map((row) => toCommandObject(row)),
    auto_moderation_rules: [],
  };
}
