import { PermissionFlagsBits } from "discord-api-types/v10";
import type { Actor } from "~/server/auth/actor.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import type { Guild, Role } from "~/generated/prisma/client.ts";
import type { GuildState, MemberAccess } from "~/server/state/guild-state.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import {
  computeChannelPermissions,
  hasAll,
  isCommunicationDisabled,
  TIMEOUT_ALLOWED_PERMISSIONS,
  type PermissionOverwriteInput,
  type RoleRank,
} from "./permissions.ts";

/** What the acting user may do in one guild, from the guild's cached state. */
export type GuildAccess = {
  state: GuildState;
  guild: Guild;
  /** Every role of the guild, @everyone included, in the platform's order. */
  roles: readonly Role[];
  userId: string;
  isOwner: boolean;
  memberRoleIds: readonly string[];
  /** Guild-level permissions (no channel overwrites), with a timeout applied. */
  permissions: bigint;
  /** Guild-level permissions before a timeout: what overwrites start from. */
  basePermissions: bigint;
  topRole: RoleRank | null;
  isTimedOut: boolean;
  /** Pending membership screening: like a timeout, only viewing is left. */
  isPending: boolean;
};

/** The guild's cached state (read with `forUserId`'s access on a miss); 10004 Unknown Guild when there is none. */
export async function loadGuildState(db: Db, guildId: string, forUserId: string | null = null): Promise<GuildState> {
  const state = await stateCache(db).guild(guildId, forUserId);
  if (!state) throw new ApiError("UNKNOWN_GUILD");
  return state;
}

/** The actor's (or any member's) access in a guild whose state is loaded; 50001 Missing Access for non-members. */
export async function accessIn(state: GuildState, actor: Pick<Actor, "userId">): Promise<GuildAccess> {
  const member = await state.member(actor.userId);
  // The platform does not reveal more to outsiders.
  if (!member) throw new ApiError("MISSING_ACCESS");
  return accessOfMember(state, actor.userId, member);
}

/** A member's access in a guild whose state is loaded, from their access already read. */
export function accessOfMember(state: GuildState, userId: string, member: MemberAccess): GuildAccess {
  const { basePermissions } = member;
  const isAdmin = (basePermissions & PermissionFlagsBits.Administrator) !== 0n;
  const isTimedOut = !isAdmin && isCommunicationDisabled(member.communicationDisabledUntil, new Date());
  const isPending = !isAdmin && member.isPending;
  const isLimited = isTimedOut || isPending;
  return {
    state,
    guild: state.guild,
    roles: state.roles,
    userId,
    isOwner: state.guild.ownerId === userId,
    memberRoleIds: member.roleIds,
    permissions: isLimited ? basePermissions & TIMEOUT_ALLOWED_PERMISSIONS : basePermissions,
    basePermissions,
    topRole: member.topRole,
    isTimedOut,
    isPending,
  };
}

/** The guild and the actor's membership: 10004 for an unknown guild, 50001 for a non-member. */
export async function loadGuildAccess(ctx: ServiceContext, guildId: string): Promise<GuildAccess> {
  return accessIn(await loadGuildState(ctx.db, guildId, ctx.actor.userId), ctx.actor);
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
  return access.isTimedOut || access.isPending ? perms & TIMEOUT_ALLOWED_PERMISSIONS : perms;
}

/** Overwrite rows as stored → the algorithm's input. */
export function toOverwriteInputs(rows: readonly { targetId: string; type: number; allow: bigint; deny: bigint }[]): PermissionOverwriteInput[] {
  return rows.map((o) => ({ id: o.targetId, type: o.type === 1 ? 1 : 0, allow: o.allow, deny: o.deny }));
}
