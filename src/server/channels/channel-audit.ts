// The audit entries of channel changes.
import { AuditLogEvent } from "discord-api-types/v10";
import { diffChanges } from "~/server/audit/audit.service.ts";
import type { Change } from "~/server/events/change.ts";
import type { GuildAccess } from "~/server/permissions/guild-access.ts";
import type { ChannelObject, OverwriteObject } from "./channel.dto.ts";

/** Keys of the channel object recorded in audit entries; overwrites get entries of their own on update. */
const CHANNEL_AUDIT_KEYS = [
  "name",
  "type",
  "position",
  "topic",
  "bitrate",
  "user_limit",
  "rate_limit_per_user",
  "nsfw",
  "parent_id",
  "rtc_region",
  "video_quality_mode",
  "default_auto_archive_duration",
  "default_thread_rate_limit_per_user",
  "available_tags",
  "default_reaction_emoji",
  "default_sort_order",
  "default_forum_layout",
  "flags",
] as const;
export const CHANNEL_RECORD_KEYS = [...CHANNEL_AUDIT_KEYS, "permission_overwrites"] as const;
const OVERWRITE_AUDIT_KEYS = ["id", "type", "allow", "deny"] as const;

/** CHANNEL_UPDATE for field changes, and one CHANNEL_OVERWRITE_* entry per overwrite changed. */
export async function auditChannelUpdate(change: Change, access: GuildAccess, before: ChannelObject, after: ChannelObject): Promise<void> {
  const guildId = access.guild.id;
  const changes = diffChanges(before, after, CHANNEL_AUDIT_KEYS);
  if (changes.length) await change.audit({ guildId, actionType: AuditLogEvent.ChannelUpdate, targetId: after.id, changes });

  // Read as Guildhall's overwrite objects: the channel types' own overwrite type lacks allow_new and deny_new.
  const was: readonly OverwriteObject[] = before.permission_overwrites;
  const is: readonly OverwriteObject[] = after.permission_overwrites;
  const old = new Map(was.map((o) => [o.id, o]));
  const kept = new Set(is.map((o) => o.id));
  const entry = (actionType: AuditLogEvent, o: OverwriteObject, from: OverwriteObject | Record<string, never>, to: OverwriteObject | Record<string, never>) =>
    change.audit({ guildId, actionType, targetId: after.id, changes: diffChanges(from, to, OVERWRITE_AUDIT_KEYS), options: overwriteOptions(access, o) });
  for (const o of is) {
    const previous = old.get(o.id);
    if (!previous) await entry(AuditLogEvent.ChannelOverwriteCreate, o, {}, o);
    else if (previous.allow !== o.allow || previous.deny !== o.deny) await entry(AuditLogEvent.ChannelOverwriteUpdate, o, previous, o);
  }
  for (const o of was) if (!kept.has(o.id)) await entry(AuditLogEvent.ChannelOverwriteDelete, o, o, {});
}

/** The audit options of an overwrite entry: its target, target type, and the role's name. */
function overwriteOptions(access: GuildAccess, o: OverwriteObject): Record<string, string> {
  const role = o.type === 0 ? access.roles.find((r) => r.id === o.id) : undefined;
  return { id: o.id, type: String(o.type), ...(role && { role_name: role.name }) };
}
