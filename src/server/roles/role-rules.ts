// Who may do what to which role: the decisions the role services enforce and the dashboard
// shows (a disabled control carries the same reason the REST call would fail for).
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import type { Role } from "~/generated/prisma/client.ts";
import { missing, type Denial } from "~/server/permissions/denial.ts";
import type { GuildAccess } from "~/server/permissions/guild-access.ts";
import { canManageRole, missingPermissions, NAMED_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { permissionLabel } from "~/server/permissions/permission-labels.ts";

/** Creating, editing, moving or deleting any role starts with MANAGE_ROLES. */
export function manageRolesDenial(access: GuildAccess): Denial | null {
  return missing(access, P.ManageRoles);
}

/** The owner manages every role; anyone else only roles strictly below their top role (at equal positions the older role is higher). */
function roleHierarchyDenial(access: GuildAccess, role: Role): Denial | null {
  if (canManageRole({ isOwner: access.isOwner, actorHighestPosition: access.topRole ?? 0, targetRolePosition: role })) return null;
  return { error: "MISSING_PERMISSIONS", reason: "This role is not below your highest role." };
}

/** PATCH /guilds/{guild.id}/roles/{role.id}; on @everyone too, whose place is the bottom. */
export function editRoleDenial(access: GuildAccess, role: Role): Denial | null {
  return manageRolesDenial(access) ?? roleHierarchyDenial(access, role);
}

/**
 * Deleting a role (DELETE /guilds/{guild.id}/roles/{role.id}), or giving or taking it from a
 * member: MANAGE_ROLES, a role below the actor's highest, never @everyone, every member's
 * base, nor a managed role, which belongs to its integration.
 */
export function roleHoldingDenial(access: GuildAccess, role: Role): Denial | null {
  const denial = manageRolesDenial(access);
  if (denial) return denial;
  if (role.id === access.guild.id) return { error: "INVALID_ROLE", reason: "Everyone has the @everyone role." };
  if (role.managed) return { error: "INVALID_ROLE", reason: "Managed roles belong to their integration." };
  return roleHierarchyDenial(access, role);
}

/**
 * A role may gain only permissions its editor holds (owners and administrators hold all);
 * `before` is the role's current set (none for a new role), which may stay as it is.
 */
export function grantDenial(access: GuildAccess, before: bigint, after: bigint): Denial | null {
  const lacking = missingPermissions(access.permissions, after & ~before);
  if (lacking === 0n) return null;
  const names = NAMED_PERMISSIONS.filter(({ bit }) => (lacking & bit) !== 0n)
    .map(({ bit }) => permissionLabel(bit))
    .join(", ");
  return { error: "MISSING_PERMISSIONS", reason: `Only someone who has ${names} can give it.` };
}

/**
 * Whether a role may change its place in the hierarchy, or another role take its place:
 * MANAGE_ROLES and a role below the actor's highest (the owner moves any). Managed roles move
 * like the rest, as on the platform: an integration keeps its role, not its place.
 */
export function roleMoveDenial(access: GuildAccess, role: Role): Denial | null {
  const denial = manageRolesDenial(access);
  if (denial) return denial;
  if (canManageRole({ isOwner: access.isOwner, actorHighestPosition: access.topRole ?? 0, targetRolePosition: role })) return null;
  return { error: "MISSING_PERMISSIONS", reason: "Roles at or above your highest role cannot move." };
}

/**
 * PATCH /guilds/{guild.id}/roles: `next` is the order (low → high, @everyone left out) the
 * request would make of `ordered`. Every role whose slot changes must be one the actor may
 * move (roleMoveDenial), so roles below the actor's highest move freely among themselves.
 */
export function reorderDenial(access: GuildAccess, ordered: readonly Role[], next: readonly Role[]): Denial | null {
  const denial = manageRolesDenial(access);
  if (denial) return denial;
  for (const [index, role] of ordered.entries()) {
    if (next[index]?.id === role.id) continue;
    const moved = roleMoveDenial(access, role);
    if (moved) return moved;
  }
  return null;
}
