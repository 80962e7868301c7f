// Voice state (DESIGN.md "Joining, voice and messages"): who is connected to which voice
// channel. The gateway will set it; the CLI sets it for tests and demos. Member mute,
// deafen and move read it.
import { randomBytes } from "node:crypto";
import { ChannelType, GatewayDispatchEvents } from "discord-api-types/v10";
import type { VoiceState } from "~/generated/prisma/client.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange, type Change, type ChangeContext } from "~/server/events/change.ts";
import { toMemberObject, type MemberRow } from "./member.dto.ts";
import { readMember } from "./member-queries.ts";

export const VOICE_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildVoice, ChannelType.GuildStageVoice];

type VoiceStateInput = Omit<VoiceState, "channelId" | "joinedAt"> & { channelId: string | null };

/** The gateway's voice state object; `channel_id` null once disconnected. Server mute and deafen are the member's. */
export function toVoiceStateObject(state: VoiceStateInput, member: MemberRow | null) {
  return {
    guild_id: state.guildId,
    channel_id: state.channelId,
    user_id: state.userId,
    ...(member && { member: toMemberObject(member) }),
    session_id: state.sessionId,
    deaf: member?.deaf ?? false,
    mute: member?.mute ?? false,
    self_deaf: state.selfDeaf,
    self_mute: state.selfMute,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

/** Fires Voice State Update for a member's current (or ended) voice state. */
export async function emitVoiceState(change: Change, state: VoiceStateInput): Promise<void> {
  const member = await readMember(change.tx, state.guildId, state.userId);
  await change.emit(GatewayDispatchEvents.VoiceStateUpdate, toVoiceStateObject(state, member));
}

/** Connects a member to a voice or stage channel of their guild (moving them if connected elsewhere). */
export async function joinVoice(ctx: ChangeContext, input: { channelId: string; userId: string; selfMute?: boolean; selfDeaf?: boolean }): Promise<VoiceState> {
  const channel = await ctx.db.channel.findUnique({ where: { id: input.channelId }, select: { guildId: true, type: true } });
  if (!channel?.guildId) throw new ApiError("UNKNOWN_CHANNEL");
  if (!VOICE_CHANNEL_TYPES.includes(channel.type)) throw new ApiError("INVALID_FORM_BODY", { message: "Not a voice channel" });
  const guildId = channel.guildId;
  return runChange(ctx, async (change) => {
    if (!(await readMember(change.tx, guildId, input.userId))) throw new ApiError("UNKNOWN_MEMBER");
    const data = { channelId: input.channelId, selfMute: input.selfMute ?? false, selfDeaf: input.selfDeaf ?? false };
    const state = await change.tx.voiceState.upsert({
      where: { guildId_userId: { guildId, userId: input.userId } },
      create: { guildId, userId: input.userId, sessionId: randomBytes(16).toString("hex"), ...data },
      update: data,
    });
    await emitVoiceState(change, state);
    return state;
  });
}

/** Disconnects a member from voice in a guild; false when they were not connected. */
export async function leaveVoice(ctx: ChangeContext, input: { guildId: string; userId: string }): Promise<boolean> {
  return runChange(ctx, async (change) => {
    const state = await change.tx.voiceState.findUnique({ where: { guildId_userId: input } });
    if (!state) return false;
    await change.tx.voiceState.delete({ where: { guildId_userId: input } });
    await emitVoiceState(change, { ...state, channelId: null });
    return true;
  });
}
