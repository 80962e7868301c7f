import type { Actor } from "~/server/auth/actor.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import type { Guild, Role } from "~/generated/prisma/client.ts";
import type { GuildState, MemberAccess } from "~/server/state/guild-state.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import {
  computePermissions,
  hasAll,
  isCommunicationDisabled,
  limitsOf,
  type ChannelInput,
  type PermissionHolder,
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
  /** Guild-level permissions (no channel overwrites), with a timeout or screening applied (computePermissions). */
  permissions: bigint;
  /** Guild-level permissions before a timeout or screening: what overwrites start from. */
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
  const holder: PermissionHolder = {
    userId,
    base: member.basePermissions,
    roleIds: member.roleIds,
    isTimedOut: isCommunicationDisabled(member.communicationDisabledUntil, new Date()),
    isPending: member.isPending,
  };
  return {
    state,
    guild: state.guild,
    roles: state.roles,
    userId,
    isOwner: state.guild.ownerId === userId,
    memberRoleIds: member.roleIds,
    permissions: computePermissions({ guildId: state.guild.id, holder }),
    basePermissions: member.basePermissions,
    topRole: member.topRole,
    ...limitsOf(holder),
  };
}

/** The guild and the actor's membership: 10004 for an unknown guild, 50001 for a non-member. */
export async function loadGuildAccess(ctx: ServiceContext, guildId: string): Promise<GuildAccess> {
  return accessIn(await loadGuildState(ctx.db, guildId, ctx.actor.userId), ctx.actor);
}

/** The actor's access in every guild they are a member of, by guild name. */
export async function loadMemberAccesses(ctx: ServiceContext): Promise<GuildAccess[]> {
  const memberships = await ctx.db.member.findMany({ where: { userId: ctx.actor.userId }, select: { guildId: true } });
  const accesses: GuildAccess[] = [];
  for (const { guildId } of memberships) accesses.push(await loadGuildAccess(ctx, guildId));
  return accesses.sort((a, b) => a.guild.name.localeCompare(b.guild.name));
}

/** Throws 50013 unless the guild-level permissions hold every flag. */
export function requirePermissions(access: GuildAccess, ...flags: bigint[]): void {
  if (!hasAll(access.permissions, ...flags)) throw new ApiError("MISSING_PERMISSIONS");
}

/** The actor's permissions in one channel of the guild (overwrites, implicit rules, timeout, screening). */
export function channelPermissions(access: GuildAccess, channel: ChannelInput): bigint {
  const holder = {
    userId: access.userId,
    base: access.basePermissions,
    roleIds: access.memberRoleIds,
    isTimedOut: access.isTimedOut,
    isPending: access.isPending,
  };
  return computePermissions({ guildId: access.guild.id, holder, channel });
}

/** Overwrite rows as stored → the algorithm's input. */
export function toOverwriteInputs(rows: readonly { targetId: string; type: number; allow: bigint; deny: bigint }[]): PermissionOverwriteInput[] {
  return rows.map((o) => ({ id: o.targetId, type: o.type === 1 ? 1 : 0, allow: o.allow, deny: o.deny }));
}
