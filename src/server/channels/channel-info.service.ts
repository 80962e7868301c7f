import {
  GatewayRequestChannelInfoField as Field,
  PermissionFlagsBits as P,
  type GatewayChannelInfoChannel,
  type GatewayChannelInfoDispatchData,
} from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { toVoiceStartTime } from "~/server/members/voice.service.ts";
import { VOICE_CHANNEL_TYPES } from "~/server/members/voice-rules.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";

/**
 * Channel Info, the answer to Request Channel Info (gateway op 43): the ephemeral data of the
 * guild's voice and stage channels the caller can view, each with only the fields asked for
 * (`status`, `voice_start_time`; others are ignored).
 */
export async function readChannelInfo(ctx: ServiceContext, input: { guildId: string; fields: readonly string[] }): Promise<GatewayChannelInfoDispatchData> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const withStatus = input.fields.includes(Field.Status);
  const withStartTime = input.fields.includes(Field.VoiceStartTime);
  const { rows } = await access.state.channels();
  const channels = rows.flatMap((channel): GatewayChannelInfoChannel[] => {
    if (!VOICE_CHANNEL_TYPES.includes(channel.type)) return [];
    if (!hasPermission(channelPermissions(access, { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) }), P.ViewChannel)) return [];
    return [
      {
        id: channel.id,
        ...(withStatus && { status: channel.voiceStatus }),
        ...(withStartTime && { voice_start_time: toVoiceStartTime(channel.voiceStartTime) }),
      },
    ];
  });
  return { guild_id: access.guild.id, channels };
}
