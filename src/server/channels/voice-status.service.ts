import { AuditLogEvent, ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { loadChannelNotThread } from "~/server/threads/thread-access.ts";
import type { TVoiceStatusBody } from "./voice-status.schema.ts";

/** The permission a caller lacks to set a voice channel's status, or null when they may. */
type VoiceStatusBlock = "SetVoiceChannelStatus" | "ManageChannels" | null;

/** SET_VOICE_CHANNEL_STATUS always; MANAGE_CHANNELS too for callers not connected to the channel. */
function voiceStatusBlock(permissions: bigint, isConnected: boolean): VoiceStatusBlock {
  if (!hasPermission(permissions, P.SetVoiceChannelStatus)) return "SetVoiceChannelStatus";
  if (!isConnected && !hasPermission(permissions, P.ManageChannels)) return "ManageChannels";
  return null;
}

async function connectedChannelId(ctx: ServiceContext, guildId: string): Promise<string | null> {
  const state = await ctx.db.voiceState.findUnique({ where: { guildId_userId: { guildId, userId: ctx.actor.userId } }, select: { channelId: true } });
  return state?.channelId ?? null;
}

/**
 * PUT /channels/{channel.id}/voice-status (spec 4.9): sets or clears (null or empty) a voice
 * channel's status. Fires Voice Channel Status Update; audited as VOICE_CHANNEL_STATUS_UPDATE
 * with the status, or VOICE_CHANNEL_STATUS_DELETE when cleared.
 */
export async function setVoiceChannelStatus(ctx: ServiceContext, input: { channelId: string; body: TVoiceStatusBody }): Promise<void> {
  const { access, channel, permissions } = await loadChannelNotThread(ctx, input.channelId);
  if (channel.type !== ChannelType.GuildVoice) throw new ApiError("WRONG_CHANNEL_TYPE");
  const guildId = access.guild.id;
  const isConnected = (await connectedChannelId(ctx, guildId)) === channel.id;
  if (voiceStatusBlock(permissions, isConnected)) throw new ApiError("MISSING_PERMISSIONS");
  const status = input.body.status || null;

  await runChange(ctx, async ({ tx, emit, audit }) => {
    await tx.channel.update({ where: { id: channel.id }, data: { voiceStatus: status } });
    await audit({
      guildId,
      actionType: status === null ? AuditLogEvent.VoiceChannelStatusDelete : AuditLogEvent.VoiceChannelStatusCreate,
      targetId: channel.id,
      options: { channel_id: channel.id, ...(status !== null && { status }) },
    });
    await emit(GatewayDispatchEvents.VoiceChannelStatusUpdate, { id: channel.id, guild_id: guildId, status });
  });
}

export type VoiceStatusRow = { channelId: string; status: string | null; blockedBy: VoiceStatusBlock };

/** The status of each voice channel the signed-in user can see, and whether they may change it (the dashboard). */
export async function listVoiceStatuses(ctx: ServiceContext, input: { guildId: string }): Promise<VoiceStatusRow[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const [{ rows }, connectedTo] = await Promise.all([access.state.channels(), connectedChannelId(ctx, input.guildId)]);
  return rows.flatMap((channel) => {
    if (channel.type !== ChannelType.GuildVoice) return [];
    const permissions = channelPermissions(access, { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) });
    if (!hasPermission(permissions, P.ViewChannel)) return [];
    return [{ channelId: channel.id, status: channel.voiceStatus, blockedBy: voiceStatusBlock(permissions, connectedTo === channel.id) }];
  });
}
