import { AuditLogEvent, GatewayDispatchEvents, GuildFeature } from "discord-api-types/v10";
import type { Role } from "~/generated/prisma/client.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { CHANNEL_INCLUDE, toChannelObject } from "~/server/channels/channel.dto.ts";
import type { ServiceContext } from "~/server/context.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { removeStoredFiles } from "~/server/images/file-removal.ts";
import { decodeImageField, imageHash, type ImageData } from "~/server/images/image-data.ts";
import { imageFolder, imagePath, replaceImage, storeImage } from "~/server/images/image.service.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { loadGuildAccess, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { compareRoles, DEFAULT_EVERYONE_PERMISSIONS, parsePermissions } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { sortRoles, toRoleObject, type RoleObject } from "./role.dto.ts";
import { deleteRoleOverwrites, deleteRoleRow, insertRoleRow, shiftRolesUp, type NewRole } from "./role-queries.ts";
import { roleHoldingDenial, editRoleDenial, grantDenial, manageRolesDenial, reorderDenial } from "./role-rules.ts";
import { HOLOGRAPHIC_ROLE_COLORS, ROLE_DEFAULT_NAME, ROLE_MAX, type TRoleParams, type TRolePositionsBody } from "./role.schema.ts";

/** GET /guilds/{guild.id}/roles: members only. */
export async function listRoles(ctx: ServiceContext, input: { guildId: string }): Promise<readonly RoleObject[]> {
  const { state } = await loadGuildAccess(ctx, input.guildId);
  return state.roleObjects;
}

/** GET /guilds/{guild.id}/roles/{role.id}: members only. */
export async function getRole(ctx: ServiceContext, input: { guildId: string; roleId: string }): Promise<RoleObject> {
  const { state } = await loadGuildAccess(ctx, input.guildId);
  const role = state.roleObjects.find((r) => r.id === input.roleId);
  if (!role) throw new ApiError("UNKNOWN_ROLE");
  return role;
}

/** POST /guilds/{guild.id}/roles (spec 4.6): needs MANAGE_ROLES; the new role sits just above @everyone. */
export async function createRole(ctx: ServiceContext, input: { guildId: string; body: TRoleParams }): Promise<RoleObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageRolesDenial(access));
  const { guild } = access;
  if (access.roles.filter((r) => r.id !== guild.id).length >= ROLE_MAX) throw new ApiError("MAX_ROLES");
  // The platform's default for a new role is what @everyone has.
  const defaultPermissions = everyoneRole(access).permissions;
  const params = resolveParams(access, input.body, defaultPermissions);
  const permissions = params.columns.permissions ?? defaultPermissions;
  enforce(grantDenial(access, 0n, permissions));

  return runChange(ctx, async (change) => {
    const id = newId();
    const icon = params.icon ? await storeImage(change.tx, "role-icons", id, params.icon) : null;
    const role = toRoleObject(await insertRoleAboveEveryone(change, guild.id, { name: ROLE_DEFAULT_NAME, ...params.columns, id, permissions, icon }));
    await change.audit({
      guildId: guild.id,
      actionType: AuditLogEvent.RoleCreate,
      targetId: id,
      changes: diffChanges({}, withoutNulls(auditFields(role)), ROLE_AUDIT_KEYS),
    });
    return role;
  });
}

/**
 * Adds a role just above @everyone inside a change, where new roles go: every role above
 * moves up one. Fires Guild Role Create and a Guild Role Update for each role moved.
 */
export async function insertRoleAboveEveryone({ sql, emit }: Change, guildId: string, data: Omit<NewRole, "guildId" | "position">): Promise<Role> {
  const shifted = await shiftRolesUp(sql, guildId);
  const row = await insertRoleRow(sql, { ...data, guildId, position: 1 });
  await emit(GatewayDispatchEvents.GuildRoleCreate, { guild_id: guildId, role: toRoleObject(row) });
  // Listeners keep their caches ordered from these.
  for (const other of shifted) await emit(GatewayDispatchEvents.GuildRoleUpdate, { guild_id: guildId, role: toRoleObject(other) });
  return row;
}

/**
 * PATCH /guilds/{guild.id}/roles/{role.id} (spec 4.6): needs MANAGE_ROLES and a top role above
 * the target. On @everyone only permissions apply; the platform ignores its other fields.
 */
export async function modifyRole(ctx: ServiceContext, input: { guildId: string; roleId: string; body: TRoleParams }): Promise<RoleObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageRolesDenial(access));
  const current = findRole(access, input.roleId);
  enforce(editRoleDenial(access, current));
  const isEveryone = current.id === access.guild.id;
  const defaultPermissions = isEveryone ? DEFAULT_EVERYONE_PERMISSIONS : everyoneRole(access).permissions;
  const params = resolveParams(access, isEveryone ? { permissions: input.body.permissions } : input.body, defaultPermissions);
  if (params.columns.permissions !== undefined) enforce(grantDenial(access, current.permissions, params.columns.permissions));

  return runChange(ctx, async (change) => {
    const { tx, emit, audit } = change;
    const row = await tx.role.update({
      where: { id: current.id },
      data: { ...params.columns, ...(params.icon !== undefined && { icon: params.icon && imageHash(params.icon) }) },
    });
    if (params.icon !== undefined) await replaceImage(change, imageFolder("role-icons", current.id), current.icon, params.icon);
    const role = toRoleObject(row);
    const changes = diffChanges(auditFields(toRoleObject(current)), auditFields(role), ROLE_AUDIT_KEYS);
    if (changes.length) await audit({ guildId: access.guild.id, actionType: AuditLogEvent.RoleUpdate, targetId: role.id, changes });
    await emit(GatewayDispatchEvents.GuildRoleUpdate, { guild_id: access.guild.id, role });
    return role;
  });
}

/**
 * PATCH /guilds/{guild.id}/roles: the listed roles take the given positions, the others keep
 * their order around them, and positions are renumbered 1..n. Needs MANAGE_ROLES; nothing at
 * or above the caller's top role may move (the owner excepted). Returns every role.
 */
export async function modifyRolePositions(ctx: ServiceContext, input: { guildId: string; positions: TRolePositionsBody }): Promise<RoleObject[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageRolesDenial(access));
  const everyoneId = access.guild.id;
  const ordered = rankedRoles(access);
  const requested = new Map<string, number>();
  for (const entry of input.positions) {
    if (entry.id === everyoneId) {
      // @everyone is always at 0: clients that send the whole list include it there.
      if (entry.position) throw new ApiError("INVALID_ROLE");
      continue;
    }
    if (!ordered.some((r) => r.id === entry.id)) throw new ApiError("UNKNOWN_ROLE");
    if (entry.position !== null && entry.position !== undefined) requested.set(entry.id, entry.position);
  }
  const next = placeRoles(ordered, requested);
  enforce(reorderDenial(access, ordered, next));

  return runChange(ctx, async ({ tx, emit, audit }) => {
    const roles = [everyoneRole(access)];
    for (const [index, role] of next.entries()) {
      const position = index + 1;
      if (role.position === position) {
        roles.push(role);
        continue;
      }
      const row = await tx.role.update({ where: { id: role.id }, data: { position } });
      roles.push(row);
      if (requested.has(role.id)) {
        await audit({
          guildId: everyoneId,
          actionType: AuditLogEvent.RoleUpdate,
          targetId: role.id,
          changes: [{ key: "position", old_value: role.position, new_value: position }],
        });
      }
      await emit(GatewayDispatchEvents.GuildRoleUpdate, { guild_id: everyoneId, role: toRoleObject(row) });
    }
    return sortRoles(roles).map(toRoleObject);
  });
}

/** DELETE /guilds/{guild.id}/roles/{role.id} (spec 4.2): needs MANAGE_ROLES and a top role above it. */
export async function deleteRole(ctx: ServiceContext, input: { guildId: string; roleId: string }): Promise<void> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageRolesDenial(access));
  const role = findRole(access, input.roleId);
  enforce(roleHoldingDenial(access, role));
  await runChange(ctx, async (change) => {
    await removeRole(change, access.guild.id, role.id);
    const changes = diffChanges(withoutNulls(auditFields(toRoleObject(role))), {}, ROLE_AUDIT_KEYS);
    await change.audit({ guildId: access.guild.id, actionType: AuditLogEvent.RoleDelete, targetId: role.id, changes });
  });
}

/**
 * Deletes a role inside a change (a moderator's delete, or an integration's managed role
 * going with it): its overwrites and its icon's file go too. Fires Guild Role Delete and a Channel Update for
 * each channel that had an overwrite for it.
 */
export async function removeRole(change: Change, guildId: string, roleId: string): Promise<void> {
  const { tx, sql, emit } = change;
  const deleted = await deleteRoleRow(sql, roleId);
  // As Prisma's delete answers a role gone meanwhile (404).
  if (!deleted) throw new ApiError("NOT_FOUND");
  if (deleted.icon) await removeStoredFiles(change, [imagePath(imageFolder("role-icons", roleId), deleted.icon)]);
  const overwritten = await deleteRoleOverwrites(sql, guildId, roleId);
  await emit(GatewayDispatchEvents.GuildRoleDelete, { guild_id: guildId, role_id: roleId });
  if (overwritten.length === 0) return;
  const channels = await tx.channel.findMany({ where: { id: { in: overwritten } }, include: CHANNEL_INCLUDE });
  for (const channel of channels) await emit(GatewayDispatchEvents.ChannelUpdate, toChannelObject(channel));
}

/** Roles low → high after placing each requested role at its 1-based slot; the rest fill the gaps in order. */
export function placeRoles(ordered: readonly Role[], requested: ReadonlyMap<string, number>): Role[] {
  const count = ordered.length;
  const slots: (Role | undefined)[] = new Array<Role | undefined>(count);
  const moved = ordered
    .filter((r) => requested.has(r.id))
    .map((role) => ({ role, slot: Math.min(Math.max(requested.get(role.id) ?? 1, 1), count) - 1 }))
    .sort((a, b) => a.slot - b.slot);
  for (const { role, slot } of moved) {
    let i = slot;
    while (i < count && slots[i]) i++;
    if (i === count) {
      i = slot;
      while (slots[i]) i--;
    }
    slots[i] = role;
  }
  const rest = ordered.filter((r) => !requested.has(r.id));
  return Array.from(slots, (role) => role ?? rest.shift()!);
}

/** The roles above @everyone, low → high, as the hierarchy ranks them. */
export function rankedRoles(access: GuildAccess): Role[] {
  return access.roles.filter((role) => role.id !== access.guild.id).sort(compareRoles);
}

function findRole(access: GuildAccess, roleId: string): Role {
  const role = access.roles.find((r) => r.id === roleId);
  if (!role) throw new ApiError("UNKNOWN_ROLE");
  return role;
}

function everyoneRole(access: GuildAccess): Role {
  return findRole(access, access.guild.id);
}

type RoleColumns = Partial<Pick<Role, "name" | "permissions" | "color" | "secondaryColor" | "tertiaryColor" | "hoist" | "unicodeEmoji" | "mentionable">>;

/**
 * Role parameters → columns for the fields present (null → the default), with the guild
 * feature each needs. `icon` is undefined when untouched, null when cleared.
 */
function resolveParams(access: GuildAccess, body: TRoleParams, defaultPermissions: bigint): { columns: RoleColumns; icon?: ImageData | null } {
  const features = parseFeatures(access.guild.features);
  const requireFeature = (feature: GuildFeature) => {
    if (!features.includes(feature)) throw new ApiError("NEEDS_MORE_BOOSTS");
  };
  const columns: RoleColumns = {};
  if (body.name !== undefined) columns.name = body.name ?? ROLE_DEFAULT_NAME;
  if (body.permissions !== undefined) columns.permissions = body.permissions === null ? defaultPermissions : parsePermissions(body.permissions);
  if (body.hoist !== undefined) columns.hoist = body.hoist ?? false;
  if (body.mentionable !== undefined) columns.mentionable = body.mentionable ?? false;

  // `colors` wins over the deprecated `color`, which always mirrors primary_color; a bare
  // `color` makes the role a solid color.
  if (body.colors !== undefined) {
    const colors = body.colors ?? { primary_color: 0 };
    columns.color = colors.primary_color;
    columns.secondaryColor = colors.secondary_color ?? null;
    columns.tertiaryColor = colors.tertiary_color ?? null;
    if (columns.secondaryColor !== null || columns.tertiaryColor !== null) requireFeature(GuildFeature.EnhancedRoleColors);
    if (columns.tertiaryColor !== null) checkHolographic(colors);
  } else if (body.color !== undefined) {
    columns.color = body.color ?? 0;
    columns.secondaryColor = null;
    columns.tertiaryColor = null;
  }

  if (body.unicode_emoji !== undefined) {
    if (body.unicode_emoji !== null) requireFeature(GuildFeature.RoleIcons);
    columns.unicodeEmoji = body.unicode_emoji;
  }
  if (body.icon === undefined) return { columns };
  if (body.icon === null) return { columns, icon: null };
  requireFeature(GuildFeature.RoleIcons);
  return { columns, icon: decodeImageField("icon", body.icon) };
}

/** A tertiary color selects the holographic style, which has exactly one set of colors. */
function checkHolographic(colors: NonNullable<TRoleParams["colors"]>): void {
  const { primary_color, secondary_color, tertiary_color } = HOLOGRAPHIC_ROLE_COLORS;
  if (colors.primary_color !== primary_color || colors.secondary_color !== secondary_color || colors.tertiary_color !== tertiary_color) {
    throw invalidField(
      ["colors", "tertiary_color"],
      "BASE_TYPE_CHOICES",
      `A tertiary color needs the holographic style: primary_color ${primary_color}, secondary_color ${secondary_color}, tertiary_color ${tertiary_color}.`,
    );
  }
}

const ROLE_AUDIT_KEYS = ["name", "permissions", "color", "colors", "hoist", "mentionable", "icon_hash", "unicode_emoji"] as const;

/** A role's audited fields under the audit log's change keys (the icon is `icon_hash`). */
function auditFields(role: RoleObject): Record<(typeof ROLE_AUDIT_KEYS)[number], unknown> {
  return {
    name: role.name,
    permissions: role.permissions,
    color: role.color,
    colors: role.colors,
    hoist: role.hoist,
    mentionable: role.mentionable,
    icon_hash: role.icon,
    unicode_emoji: role.unicode_emoji,
  };
}

function withoutNulls(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
}
