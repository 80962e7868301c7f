import { ChannelType } from "discord-api-types/v10";
import type { Db, Tx } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { countOnlineMembers } from "~/server/presences/presence.service.ts";
import { isInviteLive, type InviteCounts, type InviteRow } from "./invite.dto.ts";

/**
 * An invite that still admits people, by code; a guild's vanity code resolves to an invite
 * to its first text channel that never expires. 10006 Unknown Invite otherwise.
 */
export async function readLiveInvite(db: Tx, code: string): Promise<InviteRow & { isVanity: boolean }> {
  const row = await db.invite.findUnique({ where: { code }, include: { guild: true, channel: true } });
  if (row) {
    if (!isInviteLive(row, new Date())) throw new ApiError("UNKNOWN_INVITE");
    return { ...row, isVanity: false };
  }
  const guild = await db.guild.findUnique({ where: { vanityUrlCode: code } });
  const channel = guild
    ? await db.channel.findFirst({ where: { guildId: guild.id, type: ChannelType.GuildText }, orderBy: [{ position: "asc" }, { id: "asc" }] })
    : null;
  if (!guild || !channel) throw new ApiError("UNKNOWN_INVITE");
  return {
    code,
    guild,
    guildId: guild.id,
    channel,
    channelId: channel.id,
    inviterId: null,
    maxAge: 0,
    maxUses: 0,
    uses: guild.vanityUses,
    temporary: false,
    targetType: null,
    targetUserId: null,
    targetApplicationId: null,
    flags: 0,
    roleIds: "[]",
    createdAt: guild.createdAt,
    expiresAt: null,
    isVanity: true,
  };
}

/** Members, and members others see online (presences). */
export async function inviteCounts(db: Db, guildId: string): Promise<InviteCounts> {
  const members = await db.member.count({ where: { guildId } });
  const presences = (await countOnlineMembers(db, [guildId])).get(guildId) ?? 0;
  return { members, presences };
}
