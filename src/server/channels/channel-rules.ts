// Who may do what to which channel: the decisions the channel services enforce and the
// dashboard shows. Within a channel its overwrites decide, not the guild-level permission.
import { GuildFeature, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { Guild } from "~/generated/prisma/client.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { missingIn, type Denial } from "~/server/permissions/denial.ts";
import type { GuildAccess } from "~/server/permissions/guild-access.ts";

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
export function overwritesDenial(access: GuildAccess, permissions: bigint): Denial | null {
  return missingIn(access, permissions, [P.ManageRoles], " in this channel");
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

function isRequiredChannel(guild: Guild, channelId: string): boolean {
  const isRequired = guild.rulesChannelId === channelId || guild.publicUpdatesChannelId === channelId;
  return isRequired && parseFeatures(guild.features).includes(GuildFeature.Community);
}
