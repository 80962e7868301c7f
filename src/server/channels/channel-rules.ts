// Who may do what to which channel: the decisions the channel services enforce and the
// dashboard shows. Within a channel its overwrites decide, not the guild-level permission.
import { GuildFeature, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { Guild } from "~/generated/prisma/client.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { missingIn, type Denial } from "~/server/permissions/denial.ts";
import type { GuildAccess } from "~/server/permissions/guild-access.ts";
import { ALL_PERMISSIONS, hasPermission, NAMED_PERMISSIONS, type PermissionOverwriteInput } from "~/server/permissions/permissions.ts";

/** POST /guilds/{guild.id}/channels: MANAGE_CHANNELS, inside a category as the actor holds it there (`parentPermissions`). */
export function createChannelDenial(access: GuildAccess, parentPermissions: bigint | null): Denial | null {
  if (parentPermissions === null) return missingIn(access, access.permissions, [P.ManageChannels]);
  return missingIn(access, parentPermissions, [P.ManageChannels], " in this category");
}

/** PATCH /channels/{channel.id}: MANAGE_CHANNELS as the actor holds it in the channel (`permissions`). */
export function editChannelDenial(access: GuildAccess, permissions: bigint): Denial | null {
  return missingIn(access, permissions, [P.ManageChannels], " in this channel");
}

/** Changing a channel's overwrites also takes MANAGE_ROLES in the channel. */
function overwritesDenial(access: GuildAccess, permissions: bigint): Denial | null {
  return missingIn(access, permissions, [P.ManageRoles], " in this channel");
}

/** Replacing a channel's overwrites: view it, and MANAGE_CHANNELS and MANAGE_ROLES in it (`permissions`). */
export function overwriteEditDenial(access: GuildAccess, permissions: bigint): Denial | null {
  if (!hasPermission(permissions, P.ViewChannel)) return { error: "MISSING_ACCESS", reason: "You cannot view this channel." };
  return editChannelDenial(access, permissions) ?? overwritesDenial(access, permissions);
}

/** One overwrite set or removed (PUT or DELETE /channels/{channel.id}/permissions/{id}): view the channel and MANAGE_ROLES in it. */
export function singleOverwriteDenial(access: GuildAccess, permissions: bigint): Denial | null {
  if (!hasPermission(permissions, P.ViewChannel)) return { error: "MISSING_ACCESS", reason: "You cannot view this channel." };
  return overwritesDenial(access, permissions);
}

/** What an overwrite change may touch: the bits the actor may allow or deny, and whether MANAGE_ROLES is one. */
export type OverwriteLimits = { held: bigint; maySetManageRoles: boolean };

/** A new channel's overwrites: bits held in the guild or in its category (`parentPermissions`); MANAGE_ROLES takes ADMINISTRATOR. */
export function newChannelOverwriteLimits(access: GuildAccess, parentPermissions: bigint | null): OverwriteLimits {
  return { held: access.permissions | (parentPermissions ?? 0n), maySetManageRoles: isAdministrator(access) };
}

/**
 * An existing channel's overwrites (`overwrites`, as they are): as a new channel's, with the
 * category it ends up in; an overwrite here that allows the actor MANAGE_ROLES lifts both
 * limits, as on the platform.
 */
export function overwriteLimits(access: GuildAccess, overwrites: readonly PermissionOverwriteInput[], parentPermissions: bigint | null): OverwriteLimits {
  const mine = new Set([access.guild.id, access.userId, ...access.memberRoleIds]);
  const isGranted = overwrites.some((o) => mine.has(o.id) && hasPermission(o.allow, P.ManageRoles));
  return isGranted ? { held: ALL_PERMISSIONS, maySetManageRoles: true } : newChannelOverwriteLimits(access, parentPermissions);
}

/** Allowing, denying or clearing one permission in an overwrite: only permissions the actor holds. */
export function overwriteBitDenial(access: GuildAccess, bit: bigint, limits: OverwriteLimits): Denial | null {
  if (bit === P.ManageRoles && !limits.maySetManageRoles)
    return { error: "MISSING_PERMISSIONS", reason: "Only administrators may allow or deny MANAGE_ROLES in a channel." };
  return missingIn(access, limits.held, [bit], " yourself to allow or deny it");
}

/** A change of every bit in `changed` (what an overwrite change sets or clears): the first bit refused. */
export function overwriteChangeDenial(access: GuildAccess, changed: bigint, limits: OverwriteLimits): Denial | null {
  for (const { bit } of NAMED_PERMISSIONS) {
    const denial = hasPermission(changed, bit) ? overwriteBitDenial(access, bit, limits) : null;
    if (denial) return denial;
  }
  // Bits the platform does not define are held by no one.
  const unknown = changed & ~ALL_PERMISSIONS;
  return unknown === 0n ? null : { error: "MISSING_PERMISSIONS", reason: `${unknown.toString()} is not a permission.` };
}

/** DELETE /channels/{channel.id}: as editing; a community guild keeps its rules and updates channels. */
export function deleteChannelDenial(access: GuildAccess, channel: { id: string }, permissions: bigint): Denial | null {
  const denial = editChannelDenial(access, permissions);
  if (denial) return denial;
  return isRequiredChannel(access.guild, channel.id)
    ? { error: "CANNOT_DELETE_REQUIRED_CHANNEL", reason: "A community guild needs its rules and updates channels." }
    : null;
}

/** PATCH /guilds/{guild.id}/channels: MANAGE_CHANNELS in the guild. */
export function reorderChannelsDenial(access: GuildAccess): Denial | null {
  return missingIn(access, access.permissions, [P.ManageChannels]);
}

function isAdministrator(access: GuildAccess): boolean {
  return hasPermission(access.permissions, P.Administrator);
}

function isRequiredChannel(guild: Guild, channelId: string): boolean {
  const isRequired = guild.rulesChannelId === channelId || guild.publicUpdatesChannelId === channelId;
  return isRequired && parseFeatures(guild.features).includes(GuildFeature.Community);
}
