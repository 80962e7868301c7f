// What the roles page reads beyond the REST objects: each role with what the signed-in user
// may do to it and why not, decided by the rules the role services enforce (role-rules.ts).
import type { Role } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { reasonOf } from "~/server/permissions/denial.ts";
import { loadGuildAccess, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { NAMED_PERMISSIONS } from "~/server/permissions/permissions.ts";
import type { RoleObject } from "./role.dto.ts";
import type { TRolePositionsBody } from "./role.schema.ts";
import { roleHoldingDenial, editRoleDenial, grantDenial, manageRolesDenial, reorderDenial } from "./role-rules.ts";
import { modifyRolePositions, placeRoles, rankedRoles } from "./role.service.ts";

export type MoveDirection = "up" | "down";

/** Null where the viewer may, else the reason. */
type RoleDenials = { edit: string | null; delete: string | null; moveUp: string | null; moveDown: string | null };

/** A role as the roles page shows it; `ungrantable` (a permission bitfield) holds what this viewer may not add to it. */
export type RoleRow = { role: RoleObject; denials: RoleDenials; ungrantable: string };

/** The positions PATCH /guilds/{guild.id}/roles takes to swap the role at `index` of `ordered` with its neighbour; null at either end. */
function swapPositions(ordered: readonly Role[], index: number, direction: MoveDirection): TRolePositionsBody | null {
  const other = index + (direction === "up" ? 1 : -1);
  const role = ordered[index];
  const neighbour = ordered[other];
  // Positions are 1-based slots in the hierarchy's order, so roles sharing a position swap too.
  return role && neighbour
    ? [
        { id: role.id, position: other + 1 },
        { id: neighbour.id, position: index + 1 },
      ]
    : null;
}

function moveReason(access: GuildAccess, ordered: readonly Role[], index: number, direction: MoveDirection): string | null {
  const positions = swapPositions(ordered, index, direction);
  if (!positions) return direction === "up" ? "Already the highest role." : "Already the lowest role.";
  const next = placeRoles(ordered, new Map(positions.map((entry) => [entry.id, entry.position ?? 1])));
  return reasonOf(reorderDenial(access, ordered, next));
}

/** Every permission bit the viewer could not add to `role` (grantDenial, bit by bit). */
function ungrantable(access: GuildAccess, role: Role): bigint {
  return NAMED_PERMISSIONS.reduce((bits, { bit }) => (grantDenial(access, role.permissions, role.permissions | bit) ? bits | bit : bits), 0n);
}

/** Every role, highest first and @everyone last, each with what the viewer may do to it; `create` says whether they may add one. */
export async function listRolesForDashboard(ctx: ServiceContext, input: { guildId: string }): Promise<{ create: string | null; rows: RoleRow[] }> {
  const access = await loadGuildAccess(ctx.db, ctx.actor, input.guildId);
  const objects = new Map(access.state.roleObjects.map((role) => [role.id, role]));
  const row = (role: Role, moves: Pick<RoleDenials, "moveUp" | "moveDown">): RoleRow => ({
    role: objects.get(role.id)!,
    denials: { edit: reasonOf(editRoleDenial(access, role)), delete: reasonOf(roleHoldingDenial(access, role)), ...moves },
    ungrantable: ungrantable(access, role).toString(),
  });
  const ordered = rankedRoles(access);
  const rows = ordered.map((role, index) =>
    row(role, { moveUp: moveReason(access, ordered, index, "up"), moveDown: moveReason(access, ordered, index, "down") }),
  );
  const everyone = access.roles.find((role) => role.id === access.guild.id)!;
  const fixed = "@everyone is always the lowest role.";
  return { create: reasonOf(manageRolesDenial(access)), rows: [...rows.reverse(), row(everyone, { moveUp: fixed, moveDown: fixed })] };
}

/** Swaps a role with the one above or below it in the hierarchy, through PATCH /guilds/{guild.id}/roles's service. */
export async function moveRole(ctx: ServiceContext, input: { guildId: string; roleId: string; direction: MoveDirection }): Promise<RoleObject[]> {
  const access = await loadGuildAccess(ctx.db, ctx.actor, input.guildId);
  const ordered = rankedRoles(access);
  const index = ordered.findIndex((role) => role.id === input.roleId);
  if (index < 0) throw new ApiError("UNKNOWN_ROLE");
  const positions = swapPositions(ordered, index, input.direction);
  // Already at that end: nothing moves.
  return modifyRolePositions(ctx, { guildId: input.guildId, positions: positions ?? [] });
}
