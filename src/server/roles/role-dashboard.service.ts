// What the roles page reads beyond the REST objects: each role with what the signed-in user
// may do to it and why not, decided by the rules the role services enforce (role-rules.ts).
import type { Role } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { reasonOf } from "~/server/permissions/denial.ts";
import { loadGuildAccess, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { NAMED_PERMISSIONS } from "~/server/permissions/permissions.ts";
import type { RoleObject } from "./role.dto.ts";
import type { TRolePositionsBody } from "./role.schema.ts";
import { roleHoldingDenial, editRoleDenial, grantDenial, manageRolesDenial, reorderDenial, roleMoveDenial } from "./role-rules.ts";
import { modifyRolePositions, placeRoles, rankedRoles } from "./role.service.ts";

export type MoveDirection = "up" | "down";

/**
 * Null where the viewer may, else the reason. `move`: whether the role may be dragged, and
 * another role dropped in its place; `moveUp`/`moveDown`: a swap with its neighbour.
 */
type RoleDenials = { edit: string | null; delete: string | null; move: string | null; moveUp: string | null; moveDown: string | null };

/**
 * A role as the roles page shows it; `ungrantable` (a permission bitfield) holds what this
 * viewer may not add to it; `managedBy` says what keeps a managed role.
 */
export type RoleRow = { role: RoleObject; denials: RoleDenials; ungrantable: string; managedBy: string | null };

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

/** For each managed role, the bot or integration that keeps it, named where the guild's integrations say. */
async function managers(db: Db, access: GuildAccess): Promise<Map<string, string>> {
  const roleIds = access.roles.filter((role) => role.managed).map((role) => role.id);
  if (!roleIds.length) return new Map();
  const integrations = await db.integration.findMany({ where: { guildId: access.guild.id, roleId: { in: roleIds } } });
  return new Map(
    integrations.map((row) => [
      row.roleId!,
      row.type === "discord" ? `the bot ${row.name}` : `the ${INTEGRATION_KINDS[row.type] ?? row.type} integration ${row.name}`,
    ]),
  );
}

const INTEGRATION_KINDS: Record<string, string> = { twitch: "Twitch", youtube: "YouTube", guild_subscription: "server subscription" };

/** Every role, highest first and @everyone last, each with what the viewer may do to it; `create` says whether they may add one. */
export async function listRolesForDashboard(ctx: ServiceContext, input: { guildId: string }): Promise<{ create: string | null; rows: RoleRow[] }> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const objects = new Map(access.state.roleObjects.map((role) => [role.id, role]));
  const managedBy = await managers(ctx.db, access);
  const row = (role: Role, moves: Pick<RoleDenials, "move" | "moveUp" | "moveDown">): RoleRow => ({
    role: objects.get(role.id)!,
    denials: { edit: reasonOf(editRoleDenial(access, role)), delete: reasonOf(roleHoldingDenial(access, role)), ...moves },
    ungrantable: ungrantable(access, role).toString(),
    managedBy: role.managed ? `Managed by ${managedBy.get(role.id) ?? "an integration"}.` : null,
  });
  const ordered = rankedRoles(access);
  const rows = ordered.map((role, index) =>
    row(role, {
      move: reasonOf(roleMoveDenial(access, role)),
      moveUp: moveReason(access, ordered, index, "up"),
      moveDown: moveReason(access, ordered, index, "down"),
    }),
  );
  const everyone = access.roles.find((role) => role.id === access.guild.id)!;
  const fixed = "@everyone is always the lowest role.";
  return { create: reasonOf(manageRolesDenial(access)), rows: [...rows.reverse(), row(everyone, { move: fixed, moveUp: fixed, moveDown: fixed })] };
}

/**
 * Moves a role through PATCH /guilds/{guild.id}/roles's service: one step up or down (a swap
 * with its neighbour), or to where `toRoleId` is (dragging), the roles between shifting by one.
 */
export async function moveRole(
  ctx: ServiceContext,
  input: { guildId: string; roleId: string; direction: MoveDirection } | { guildId: string; roleId: string; toRoleId: string },
): Promise<RoleObject[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const ordered = rankedRoles(access);
  const slotOf = (roleId: string) => {
    const index = ordered.findIndex((role) => role.id === roleId);
    if (index < 0) throw new ApiError("UNKNOWN_ROLE");
    return index;
  };
  const index = slotOf(input.roleId);
  // Already at that end: nothing moves.
  const positions =
    "direction" in input ? (swapPositions(ordered, index, input.direction) ?? []) : [{ id: input.roleId, position: slotOf(input.toRoleId) + 1 }];
  return modifyRolePositions(ctx, { guildId: input.guildId, positions });
}
