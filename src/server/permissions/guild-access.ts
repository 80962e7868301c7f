import { PermissionFlagsBits } from "discord-api-types/v10";
import type { Actor } from "~/server/auth/actor.ts";
import type { Tx } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import type { Guild, Role } from "~/generated/prisma/client.ts";
import {
  computeBasePermissions,
  computeChannelPermissions,
  hasAll,
  highestRole,
  isCommunicationDisabled,
  TIMEOUT_ALLOWED_PERMISSIONS,
  type PermissionOverwriteInput,
  type RoleRank,
} from "./permissions.ts";

/** What the acting user may do in one guild, loaded once per request. */
export type GuildAccess = {
  guild: Guild;
  /** Every role of the guild, @everyone included. */
  roles: Role[];
  userId: string;
  isOwner: boolean;
  memberRoleIds: string[];
  /** Guild-level permissions (no channel overwrites), with a timeout applied. */
  permissions: bigint;
  /** Guild-level permissions before a timeout: what overwrites start from. */
  basePermissions: bigint;
  topRole: RoleRank | null;
  isTimedOut: boolean;
};

/**
 * Loads the guild and the actor's membership. Unknown guild → 10004; a guild the actor is
 * not in → 50001 Missing Access (the platform does not reveal more to outsiders).
 */
export async function loadGuildAccess(db: Tx, actor: Actor, guildId: string): Promise<GuildAccess> {
  const [guild, member] = await Promise.all([
    db.guild.findUnique({ where: { id: guildId }, include: { roles: true } }),
    db.member.findUnique({ where: { guildId_userId: { guildId, userId: actor.userId } }, select: { communicationDisabledUntil: true, roles: { select: { roleId: true } } } }),
  ]);
  if (!guild) throw new ApiError("UNKNOWN_GUILD");
  if (!member) throw new ApiError("MISSING_ACCESS");
  const { roles, ...guildRow } = guild;
  const memberRoleIds = member.roles.map((r) => r.roleId);
  const held = new Set(memberRoleIds);
  const memberRoles = roles.filter((r) => held.has(r.id));
  const everyone = roles.find((r) => r.id === guild.id);
  const basePermissions = computeBasePermissions({
    ownerId: guild.ownerId,
    userId: actor.userId,
    everyonePermissions: everyone?.permissions ?? 0n,
    rolePermissions: memberRoles.map((r) => r.permissions),
  });
  const isAdmin = (basePermissions & PermissionFlagsBits.Administrator) !== 0n;
  const isTimedOut = !isAdmin && isCommunicationDisabled(member.communicationDisabledUntil, new Date());
  return {
    guild: guildRow,
    roles,
    userId: actor.userId,
    isOwner: guild.ownerId === actor.userId,
    memberRoleIds,
    permissions: isTimedOut ? basePermissions & TIMEOUT_ALLOWED_PERMISSIONS : basePermissions,
    basePermissions,
    topRole: highestRole(memberRoles),
    isTimedOut,
  };
}

/** Throws 50013 unless the guild-level permissions hold every flag. */
export function requirePermissions(access: GuildAccess, ...flags: bigint[]): void {
  if (!hasAll(access.permissions, ...flags)) throw new ApiError("MISSING_PERMISSIONS");
}

/** The actor's permissions in one channel of the guild (overwrites, implicit rules, timeout). */
export function channelPermissions(access: GuildAccess, channel: { type: number; overwrites: readonly PermissionOverwriteInput[] }): bigint {
  const perms = computeChannelPermissions({
    base: access.basePermissions,
    everyoneRoleId: access.guild.id,
    memberRoleIds: access.memberRoleIds,
    userId: access.userId,
    overwrites: channel.overwrites,
    channelType: channel.type,
  });
  return access.isTimedOut ? perms & TIMEOUT_ALLOWED_PERMISSIONS : perms;
}

/** Overwrite rows as stored → the algorithm's input. */
export function toOverwriteInputs(rows: readonly { targetId: string; type: number; allow: bigint; deny: bigint }[]): PermissionOverwriteInput[] {
  return rows.map((o) => ({ id: o.targetId, type: o.type === 1 ? 1 : 0, allow: o.allow, deny: o.deny }));
}
