// Who may do what to which member: the decisions every member service enforces and the
// dashboard shows (a disabled control carries the same reason the REST call would fail for).
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { missing, reasonOf, type Denial } from "~/server/permissions/denial.ts";
import type { GuildAccess } from "~/server/permissions/guild-access.ts";
import { canActOnMember, hasAll, hasPermission } from "~/server/permissions/permissions.ts";
import { roleHoldingDenial } from "~/server/roles/role-rules.ts";
import type { MemberAccess } from "~/server/state/guild-state.ts";

// The member services take these from here with the member rules.
export { enforce, type Denial } from "~/server/permissions/denial.ts";

/** A member an action is aimed at. */
export type MemberTarget = { userId: string; access: MemberAccess };

const isOwner = (access: GuildAccess, userId: string) => access.guild.ownerId === userId;

/** The role hierarchy between the actor and a member: the owner is above everyone, nobody acts on the owner. */
function hierarchy(access: GuildAccess, target: MemberTarget): Denial | null {
  if (isOwner(access, target.userId)) return { error: "MISSING_PERMISSIONS", reason: "The guild owner cannot be moderated." };
  const allowed = canActOnMember({
    isActorOwner: access.isOwner,
    isTargetOwner: false,
    actorHighestPosition: access.topRole ?? 0,
    targetHighestPosition: target.access.topRole ?? 0,
  });
  return allowed ? null : { error: "MISSING_PERMISSIONS", reason: "Their highest role is not below yours." };
}

export function nickDenial(access: GuildAccess, target: MemberTarget): Denial | null {
  if (target.userId === access.userId) {
    return hasPermission(access.permissions, P.ManageNicknames) ? null : missing(access, P.ChangeNickname);
  }
  return missing(access, P.ManageNicknames) ?? hierarchy(access, target);
}

export function rolesDenial(access: GuildAccess): Denial | null {
  return missing(access, P.ManageRoles);
}

/** Giving or taking one role: as deleting it (roleHoldingDenial). */
export const roleChangeDenial = roleHoldingDenial;

export function timeoutDenial(access: GuildAccess, target: MemberTarget): Denial | null {
  const denial = missing(access, P.ModerateMembers);
  if (denial) return denial;
  if (isOwner(access, target.userId)) return { error: "MISSING_PERMISSIONS", reason: "The guild owner cannot be timed out." };
  if (hasPermission(target.access.basePermissions, P.Administrator)) return { error: "MISSING_PERMISSIONS", reason: "Administrators cannot be timed out." };
  return hierarchy(access, target);
}

export function kickDenial(access: GuildAccess, target: MemberTarget): Denial | null {
  return missing(access, P.KickMembers) ?? hierarchy(access, target);
}

/** Reading the guild's bans and lifting one: BAN_MEMBERS. */
export function bansDenial(access: GuildAccess): Denial | null {
  return missing(access, P.BanMembers);
}

/** Banning a user: what the bans need; a member must also be below the actor. */
export function banDenial(access: GuildAccess, target: MemberTarget | null): Denial | null {
  return bansDenial(access) ?? (target ? hierarchy(access, target) : null);
}

export function bulkBanDenial(access: GuildAccess): Denial | null {
  return missing(access, P.BanMembers, P.ManageGuild);
}

/**
 * PUT /guilds/{guild.id}/members/{user.id}: CREATE_INSTANT_INVITE, and the permission of each
 * field the bot sets (each role: roleChangeDenial).
 */
export function addMemberDenial(access: GuildAccess, fields: { nick?: string | null; mute?: boolean | null; deaf?: boolean | null }): Denial | null {
  return (
    missing(access, P.CreateInstantInvite) ??
    (fields.nick ? missing(access, P.ManageNicknames) : null) ??
    (fields.mute ? muteDenial(access) : null) ??
    (fields.deaf ? deafenDenial(access) : null)
  );
}

/** BYPASSES_VERIFICATION: MANAGE_GUILD, or MANAGE_ROLES, or all of MODERATE_MEMBERS, KICK_MEMBERS and BAN_MEMBERS. */
export function flagsDenial(access: GuildAccess): Denial | null {
  const held = access.permissions;
  if (hasPermission(held, P.ManageGuild) || hasPermission(held, P.ManageRoles) || hasAll(held, P.ModerateMembers, P.KickMembers, P.BanMembers)) return null;
  return { error: "MISSING_PERMISSIONS", reason: "Needs Manage guild, or Manage roles, or all of Time out members, Kick members and Ban members." };
}

/** PRUNE_REQUIRES_ADMIN (spec 9) makes both prune endpoints need ADMINISTRATOR. */
export function pruneDenial(access: GuildAccess): Denial | null {
  if (parseFeatures(access.guild.features).includes("PRUNE_REQUIRES_ADMIN")) return missing(access, P.Administrator);
  return missing(access, P.ManageGuild, P.KickMembers);
}

export function muteDenial(access: GuildAccess): Denial | null {
  return missing(access, P.MuteMembers);
}

export function deafenDenial(access: GuildAccess): Denial | null {
  return missing(access, P.DeafenMembers);
}

export function moveDenial(access: GuildAccess): Denial | null {
  return missing(access, P.MoveMembers);
}

/** What the dashboard shows per member: null where allowed, else the reason. */
export function memberActionDenials(access: GuildAccess, target: MemberTarget) {
  const self = target.userId === access.userId ? "You cannot do this to yourself." : null;
  return {
    nick: reasonOf(nickDenial(access, target)),
    roles: reasonOf(rolesDenial(access)),
    timeout: self ?? reasonOf(timeoutDenial(access, target)),
    kick: self ?? reasonOf(kickDenial(access, target)),
    ban: self ?? reasonOf(banDenial(access, target)),
    flags: reasonOf(flagsDenial(access)),
  };
}
export type MemberActionDenials = ReturnType<typeof memberActionDenials>;
