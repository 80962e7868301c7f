// What the channel permissions editor reads beyond the channel object: each overwrite with its
// target's name, what the signed-in user may change (per permission and per overwrite) and why
// not, the sync state with the category, and anyone's effective permissions with sources.
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { reasonOf } from "~/server/permissions/denial.ts";
import { accessIn, channelPermissions, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import { NAMED_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { channelPermissionSources, type ChannelPermissionSource, type PermissionSubject } from "./channel-permission-sources.ts";
import { changedOverwriteBits, sameOverwrites } from "./channel-overwrites.ts";
import { overwriteBitDenial, overwriteChangeDenial, overwriteEditDenial, overwriteLimits, reorderChannelsDenial } from "./channel-rules.ts";
import { loadChannelAccess } from "./channel-read.service.ts";

/** One overwrite as the editor shows it; `remove` is why it cannot be removed, or null. */
type EditorOverwrite = { id: string; type: 0 | 1; allow: string; deny: string; name: string; color: number; remove: string | null };

/** The editor's state of one channel or category, decided by the rules PATCH /channels/{channel.id} enforces. */
export async function channelPermissionsEditor(ctx: ServiceContext, input: { channelId: string }) {
  const { access, channel, permissions } = await loadChannelAccess(ctx, input.channelId);
  const { byId } = await access.state.channels();
  const parent = channel.parentId ? (byId.get(channel.parentId) ?? null) : null;
  const overwrites = toOverwriteInputs(channel.overwrites);
  const parentOverwrites = parent ? toOverwriteInputs(parent.overwrites) : null;
  const parentPermissions = parent && parentOverwrites ? channelPermissions(access, { type: parent.type, overwrites: parentOverwrites }) : null;
  const edit = overwriteEditDenial(access, permissions);
  const limits = overwriteLimits(access, overwrites, parentPermissions);

  const memberIds = overwrites.filter((o) => o.type === 1).map((o) => o.id);
  const members = memberIds.length
    ? await ctx.db.member.findMany({ where: { guildId: access.guild.id, userId: { in: memberIds } }, include: { user: true } })
    : [];
  const memberName = new Map(members.map((m) => [m.userId, m.nick ?? m.user.globalName ?? m.user.username]));
  const role = new Map(access.roles.map((r) => [r.id, r]));
  const rows: EditorOverwrite[] = overwrites.map((o) => ({
    id: o.id,
    type: o.type,
    allow: o.allow.toString(),
    deny: o.deny.toString(),
    name: o.type === 0 ? (o.id === access.guild.id ? "@everyone" : (role.get(o.id)?.name ?? "Deleted role")) : (memberName.get(o.id) ?? "Former member"),
    color: o.type === 0 ? (role.get(o.id)?.color ?? 0) : 0,
    remove: reasonOf(edit ?? overwriteChangeDenial(access, o.allow | o.deny, limits)),
  }));

  const synced = parentOverwrites ? sameOverwrites(overwrites, parentOverwrites) : null;
  // Sync is PATCH /guilds/{guild.id}/channels with lock_permissions: a reorder that replaces the overwrites.
  const syncDenial = parentOverwrites
    ? (reorderChannelsDenial(access) ?? edit ?? overwriteChangeDenial(access, changedOverwriteBits(overwrites, parentOverwrites), limits))
    : null;

  return {
    channel: { id: channel.id, name: channel.name, type: channel.type, guildId: access.guild.id, parentId: channel.parentId },
    parent: parent ? { id: parent.id, name: parent.name } : null,
    synced,
    denials: { edit: reasonOf(edit), sync: reasonOf(syncDenial) },
    /** Why each permission cannot be allowed, denied or cleared here (for any target), or null. */
    bits: NAMED_PERMISSIONS.map(({ bit }) => ({ bit: bit.toString(), reason: reasonOf(edit ?? overwriteBitDenial(access, bit, limits)) })),
    overwrites: rows,
    roles: access.roles.map((r) => ({ id: r.id, name: r.id === access.guild.id ? "@everyone" : r.name, color: r.color, position: r.position })),
  };
}

/** A member's (or a role's alone) permissions in a channel the viewer can see, each with where it comes from. */
export async function channelEffectivePermissions(
  ctx: ServiceContext,
  input: { channelId: string; target: { type: "role" | "member"; id: string } },
): Promise<{ permissions: ChannelPermissionSource[] }> {
  const { access, channel } = await loadChannelAccess(ctx, input.channelId);
  const { target } = input;
  let subject: PermissionSubject;
  if (target.type === "role") {
    if (!access.roles.some((r) => r.id === target.id)) throw new ApiError("UNKNOWN_ROLE");
    subject = { userId: null, isOwner: false, roleIds: target.id === access.guild.id ? [] : [target.id], limit: null };
  } else {
    if (!(await access.state.member(target.id))) throw new ApiError("UNKNOWN_MEMBER");
    const theirs = await accessIn(access.state, { userId: target.id });
    subject = {
      userId: target.id,
      isOwner: theirs.isOwner,
      roleIds: theirs.memberRoleIds,
      limit: theirs.isTimedOut ? "timeout" : theirs.isPending ? "screening" : null,
    };
  }
  const permissions = channelPermissionSources({
    guild: access.guild,
    roles: access.roles,
    subject,
    channel: { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) },
  });
  return { permissions };
}
