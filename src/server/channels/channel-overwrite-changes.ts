// A change's permission overwrites: the request's in stored form, checked against what the
// caller may grant, and written.
import type { Tx } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import type { PermissionOverwriteInput } from "~/server/permissions/permissions.ts";
import { changedOverwriteBits } from "./channel-overwrites.ts";
import { permissionsIn } from "./channel-read.service.ts";
import { overwriteChangeDenial, overwriteEditDenial, overwriteLimits } from "./channel-rules.ts";
import type { Denial } from "~/server/permissions/denial.ts";
import type { ChannelRow } from "./channel.dto.ts";
import type { TOverwriteInput } from "./channel.schema.ts";

/**
 * Request overwrites → stored form. Targets must be a role of the guild or a member; a
 * missing type is inferred from the id; a repeated target replaces the earlier entry. `at`
 * is where the request holds each input, for the field error.
 */
export async function resolveOverwrites(
  db: Tx,
  access: GuildAccess,
  inputs: readonly TOverwriteInput[],
  at: (index: number) => readonly PropertyKey[] = (index) => ["permission_overwrites", index],
): Promise<PermissionOverwriteInput[]> {
  const roleIds = new Set(access.roles.map((role) => role.id));
  const maybeMembers = inputs.filter((o) => o.type === 1 || (o.type == null && !roleIds.has(o.id))).map((o) => o.id);
  const members = maybeMembers.length
    ? new Set((await db.member.findMany({ where: { guildId: access.guild.id, userId: { in: maybeMembers } }, select: { userId: true } })).map((m) => m.userId))
    : new Set<string>();
  const byTarget = new Map<string, PermissionOverwriteInput>();
  inputs.forEach((o, index) => {
    const type = o.type ?? (roleIds.has(o.id) ? 0 : members.has(o.id) ? 1 : null);
    if (type === null) throw invalidField([...at(index), "type"], "BASE_TYPE_REQUIRED", "This field is required");
    if (type === 0 && !roleIds.has(o.id)) throw new ApiError("UNKNOWN_ROLE");
    if (type === 1 && !members.has(o.id)) throw new ApiError("UNKNOWN_MEMBER");
    byTarget.set(o.id, { id: o.id, type: type === 1 ? 1 : 0, allow: o.allow, deny: o.deny });
  });
  return [...byTarget.values()];
}

/**
 * Whether the caller may replace a channel's overwrites with `after` (PATCH /channels/{id},
 * or a sync with a category on reorder); `parent` is the category it ends up in. Editing one
 * overwrite alone asks less of the caller (`editDenial`: MANAGE_ROLES without MANAGE_CHANNELS).
 */
export function checkOverwriteEdit(
  access: GuildAccess,
  channel: ChannelRow,
  parent: ChannelRow | null,
  after: readonly PermissionOverwriteInput[],
  editDenial: (access: GuildAccess, permissions: bigint) => Denial | null = overwriteEditDenial,
): void {
  const before = toOverwriteInputs(channel.overwrites);
  enforce(editDenial(access, permissionsIn(access, channel)));
  const limits = overwriteLimits(access, before, parent ? permissionsIn(access, parent) : null);
  enforce(overwriteChangeDenial(access, changedOverwriteBits(before, after), limits));
}

export async function replaceOverwrites(tx: Tx, channelId: string, overwrites: readonly PermissionOverwriteInput[]): Promise<void> {
  await tx.permissionOverwrite.deleteMany({ where: { channelId } });
  if (overwrites.length) {
    await tx.permissionOverwrite.createMany({ data: overwrites.map((o) => ({ channelId, targetId: o.id, type: o.type, allow: o.allow, deny: o.deny })) });
  }
}
