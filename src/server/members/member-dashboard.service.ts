// What the moderator's dashboard reads beyond the REST objects: for each member what the
// signed-in user may do (and why not), and where a member's permissions come from.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { loadGuildAccess, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { ALL_PERMISSIONS, hasPermission } from "~/server/permissions/permissions.ts";
import { toMemberObject, type MemberObject } from "./member.dto.ts";
import { banDenial, bulkBanDenial, memberActionDenials, pruneDenial, roleChangeDenial, type MemberActionDenials } from "./member-rules.ts";
import { readMemberPage } from "./member-queries.ts";
import { loadTarget, targetOf } from "./member.service.ts";

export type MemberListRow = { member: MemberObject; denials: MemberActionDenials };

/** The signed-in user's guild-wide moderation rights, with reasons where refused. */
export async function moderationRights(ctx: ServiceContext, input: { guildId: string }) {
  const access = await loadGuildAccess(ctx.db, ctx.actor, input.guildId);
  return {
    userId: access.userId,
    isPending: access.isPending,
    ban: banDenial(access, null)?.reason ?? null,
    bulkBan: bulkBanDenial(access)?.reason ?? null,
    prune: pruneDenial(access)?.reason ?? null,
  };
}

/** A page of members ordered by user id, optionally by name prefix and role, each with what the viewer may do. */
export async function listMembersForDashboard(
  ctx: ServiceContext,
  input: { guildId: string; after: string; limit: number; prefix?: string; roleId?: string },
): Promise<{ rows: MemberListRow[]; nextAfter: string | null }> {
  const access = await loadGuildAccess(ctx.db, ctx.actor, input.guildId);
  const { guildId, ...page } = input;
  // One more than asked shows whether another page follows.
  const rows = await readMemberPage(ctx.db, guildId, { ...page, limit: page.limit + 1 });
  const shown = rows.slice(0, input.limit);
  return {
    rows: shown.map((row) => ({ member: toMemberObject(row), denials: memberActionDenials(access, targetOf(access, row)) })),
    nextAfter: rows.length > input.limit ? (shown.at(-1)?.userId ?? null) : null,
  };
}

/** Where one permission of a member comes from. */
export type PermissionSource = { permission: string; sources: string[] };

const NAMED_PERMISSIONS = Object.entries(P).map(([name, bit]) => ({ name: name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase(), bit }));

/** The member's guild permissions, each with the roles (or ownership) that grant it. */
export function permissionSources(access: GuildAccess, userId: string, roleIds: readonly string[]): PermissionSource[] {
  if (access.guild.ownerId === userId) return NAMED_PERMISSIONS.map(({ name }) => ({ permission: name, sources: ["Guild owner"] }));
  const held = new Set(roleIds);
  const granting = access.roles.filter((role) => role.id === access.guild.id || held.has(role.id));
  const admins = granting.filter((role) => hasPermission(role.permissions, P.Administrator));
  if (admins.length > 0) {
    const sources = admins.map((role) => `Administrator (${role.name})`);
    return NAMED_PERMISSIONS.filter(({ bit }) => hasPermission(ALL_PERMISSIONS, bit)).map(({ name }) => ({ permission: name, sources }));
  }
  return NAMED_PERMISSIONS.flatMap(({ name, bit }) => {
    const sources = granting.filter((role) => hasPermission(role.permissions, bit)).map((role) => role.name);
    return sources.length > 0 ? [{ permission: name, sources }] : [];
  });
}

/** One member for the drawer: the object, what the viewer may do, every role with why it cannot be changed, permissions with sources. */
export async function memberDetails(ctx: ServiceContext, input: { guildId: string; userId: string }) {
  const access = await loadGuildAccess(ctx.db, ctx.actor, input.guildId);
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
        disabledReason: roleChangeDenial(access, role)?.reason ?? null,
      }))
      .reverse(),
    permissions: permissionSources(access, row.userId, member.roles),
  };
}
