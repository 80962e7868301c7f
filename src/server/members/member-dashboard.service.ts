// What the moderator's dashboard reads beyond the REST objects: for each member what the
// signed-in user may do (and why not), and where a member's permissions come from.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { reasonOf } from "~/server/permissions/denial.ts";
import { loadGuildAccess, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission, NAMED_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { listBans, type BanObject } from "./ban.service.ts";
import { toMemberObject, type MemberObject } from "./member.dto.ts";
import { bansDenial, bulkBanDenial, memberActionDenials, pruneDenial, roleChangeDenial, type MemberActionDenials } from "./member-rules.ts";
import { readMemberPage } from "./member-queries.ts";
import { loadTarget, targetOf } from "./member.service.ts";

export type MemberListRow = { member: MemberObject; denials: MemberActionDenials };

/** The signed-in user's guild-wide moderation rights, with reasons where refused. */
export async function moderationRights(ctx: ServiceContext, input: { guildId: string }) {
  const access = await loadGuildAccess(ctx, input.guildId);
  return {
    userId: access.userId,
    isPending: access.isPending,
    /** The bans page: reading and lifting bans. */
    ban: reasonOf(bansDenial(access)),
    bulkBan: reasonOf(bulkBanDenial(access)),
    prune: reasonOf(pruneDenial(access)),
  };
}

/** A page of members ordered by user id, optionally by a search of names or id and by role, each with what the viewer may do. */
export async function listMembersForDashboard(
  ctx: ServiceContext,
  input: { guildId: string; after: string; limit: number; search?: string; roleId?: string },
): Promise<{ rows: MemberListRow[]; nextAfter: string | null }> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const { guildId, ...page } = input;
  // One more than asked shows whether another page follows.
  const rows = await readMemberPage(ctx.db, guildId, { ...page, limit: page.limit + 1 });
  const shown = rows.slice(0, input.limit);
  return {
    rows: shown.map((row) => ({ member: toMemberObject(row), denials: memberActionDenials(access, targetOf(access, row)) })),
    nextAfter: rows.length > input.limit ? (shown.at(-1)?.userId ?? null) : null,
  };
}

/** A page of bans ordered by user id, optionally by a search of names or id, and where the next page starts. */
export async function listBansForDashboard(
  ctx: ServiceContext,
  input: { guildId: string; after?: string; limit: number; search?: string },
): Promise<{ bans: BanObject[]; nextAfter: string | null }> {
  // One more than asked shows whether another page follows.
  const bans = await listBans(ctx, { guildId: input.guildId, query: { limit: input.limit + 1, after: input.after, search: input.search } });
  const shown = bans.slice(0, input.limit);
  return { bans: shown, nextAfter: bans.length > input.limit ? (shown.at(-1)?.user.id ?? null) : null };
}

/** Where one permission of a member comes from; `bit` as a decimal string, as on the wire. */
export type PermissionSource = { permission: string; bit: string; sources: string[] };

/** The member's guild permissions, each with the roles (or ownership) that grant it. */
function permissionSources(access: GuildAccess, userId: string, roleIds: readonly string[]): PermissionSource[] {
  const source = ({ name, bit }: (typeof NAMED_PERMISSIONS)[number], sources: string[]) => ({ permission: name, bit: bit.toString(), sources });
  if (access.guild.ownerId === userId) return NAMED_PERMISSIONS.map((permission) => source(permission, ["Guild owner"]));
  const held = new Set(roleIds);
  const granting = access.roles.filter((role) => role.id === access.guild.id || held.has(role.id));
  const admins = granting.filter((role) => hasPermission(role.permissions, P.Administrator));
  if (admins.length > 0) {
    const sources = admins.map((role) => `Administrator (${role.name})`);
    return NAMED_PERMISSIONS.map((permission) => source(permission, sources));
  }
  return NAMED_PERMISSIONS.flatMap((permission) => {
    const sources = granting.filter((role) => hasPermission(role.permissions, permission.bit)).map((role) => role.name);
    return sources.length > 0 ? [source(permission, sources)] : [];
  });
}

/** One member for the drawer: the object, what the viewer may do, every role with why it cannot be changed, permissions with sources. */
export async function memberDetails(ctx: ServiceContext, input: { guildId: string; userId: string }) {
  const access = await loadGuildAccess(ctx, input.guildId);
  const { row, target } = await loadTarget(ctx.db, access, input.userId);
  const member = toMemberObject(row);
  const held = new Set(member.roles);
  return {
    member,
    isOwner: access.guild.ownerId === row.userId,
    denials: memberActionDenials(access, target),
    roles: access.roles
      .filter((role) => role.id !== access.guild.id)
      .map((role) => ({
        id: role.id,
        name: role.name,
        color: role.color,
        position: role.position,
        held: held.has(role.id),
        disabledReason: reasonOf(roleChangeDenial(access, role)),
      }))
      .reverse(),
    permissions: permissionSources(access, row.userId, member.roles),
  };
}
