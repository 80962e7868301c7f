// Who may connect to which voice channel: the decision a bot's Update Voice State (gateway
// op 4) is held to, by the permission functions REST uses.
import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { missingIn, type Denial } from "~/server/permissions/denial.ts";
import { channelPermissions, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission, type PermissionOverwriteInput } from "~/server/permissions/permissions.ts";

export const VOICE_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildVoice, ChannelType.GuildStageVoice];

/** A channel as the rule reads it: its type, overwrites and `user_limit` (0 or null: no limit). */
export type VoiceChannelFacts = { type: number; overwrites: readonly PermissionOverwriteInput[]; userLimit: number | null };

/**
 * Why a member may not connect to a channel, or null when they may: a voice or stage channel
 * where they hold VIEW_CHANNEL and CONNECT, and not full. A channel is full when the others
 * connected to it reach its `user_limit`; MOVE_MEMBERS there bypasses the limit, as on the platform.
 */
export function voiceJoinDenial(access: GuildAccess, channel: VoiceChannelFacts, othersConnected: number): Denial | null {
  if (!VOICE_CHANNEL_TYPES.includes(channel.type)) return { error: "WRONG_CHANNEL_TYPE", reason: "Only voice and stage channels can be joined." };
  const permissions = channelPermissions(access, channel);
  const denial = missingIn(access, permissions, [P.ViewChannel, P.Connect], " in this channel");
  if (denial) return denial;
  const isFull = !!channel.userLimit && othersConnected >= channel.userLimit;
  if (isFull && !hasPermission(permissions, P.MoveMembers)) {
    return { error: "MISSING_PERMISSIONS", reason: `The channel is full (${channel.userLimit} connected); Move Members bypasses the limit.` };
  }
  return null;
}
