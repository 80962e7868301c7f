// Voice state (DESIGN.md "Joining, voice and messages"): who is connected to which voice
// channel. A bot sets its own with the gateway's Update Voice State (op 4); the CLI sets
// anyone's for tests and demos. Member mute, deafen and move read it. Every connect, move
// and disconnect goes through here, so a channel's voice start time follows who is in it.
import { randomBytes } from "node:crypto";
import { GatewayDispatchEvents } from "discord-api-types/v10";
import type { VoiceState } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange, type Change, type ChangeContext } from "~/server/events/change.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { loadGuildAccess, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import { toMemberObject, type MemberRow } from "./member.dto.ts";
import { readMember } from "./member-queries.ts";
import { VOICE_CHANNEL_TYPES, voiceJoinDenial } from "./voice-rules.ts";

type VoiceStateInput = Omit<VoiceState, "channelId" | "joinedAt" | "gatewaySessionId"> & { channelId: string | null };

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

/** A channel's voice start time on the wire: Unix seconds, null while nobody is connected. */
export function toVoiceStartTime(startedAt: Date | null): number | null {
  return startedAt && Math.floor(startedAt.getTime() / 1000);
}

/**
 * After connects, moves or disconnects in these channels: a channel someone is now in gets a
 * start time if it had none, one left empty loses it, each with Voice Channel Start Time Update.
 */
async function followStartTimes(change: Change, guildId: string, channelIds: readonly (string | null)[]): Promise<void> {
  const ids = [...new Set(channelIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return;
  const channels = await change.tx.channel.findMany({ where: { id: { in: ids }, guildId }, select: { id: true, type: true, voiceStartTime: true } });
  const now = new Date();
  for (const channel of channels) {
    if (!VOICE_CHANNEL_TYPES.includes(channel.type)) continue;
    const isOccupied = (await change.tx.voiceState.count({ where: { guildId, channelId: channel.id } })) > 0;
    if (isOccupied === (channel.voiceStartTime !== null)) continue;
    const voiceStartTime = isOccupied ? now : null;
    await change.tx.channel.update({ where: { id: channel.id }, data: { voiceStartTime } });
    await change.emit(GatewayDispatchEvents.VoiceChannelStartTimeUpdate, {
      id: channel.id,
      guild_id: guildId,
      voice_start_time: toVoiceStartTime(voiceStartTime),
    });
  }
}

/** Moves a connected member to another channel inside the caller's change (member move over REST). */
export async function moveVoiceState(change: Change, state: VoiceState, channelId: string): Promise<VoiceState> {
  const moved = await change.tx.voiceState.update({ where: { guildId_userId: { guildId: state.guildId, userId: state.userId } }, data: { channelId } });
  await emitVoiceState(change, moved);
  await followStartTimes(change, state.guildId, [state.channelId, channelId]);
  return moved;
}

/**
 * Disconnects these voice states inside the caller's change (leave, kick, ban, a moderator's
 * disconnect, a gateway session's end): Voice State Update with `channel_id` null for each still
 * connected. A state another change removed first is skipped, so concurrent removals announce it once.
 */
export async function disconnectVoiceStates(change: Change, states: readonly VoiceState[]): Promise<number> {
  const byGuild = new Map<string, VoiceState[]>();
  for (const state of states) {
    const { guildId, userId, channelId, gatewaySessionId } = state;
    const { count } = await change.tx.voiceState.deleteMany({ where: { guildId, userId, channelId, gatewaySessionId } });
    if (count === 0) continue;
    await emitVoiceState(change, { ...state, channelId: null });
    byGuild.set(state.guildId, [...(byGuild.get(state.guildId) ?? []), state]);
  }
  for (const [guildId, gone] of byGuild)
    await followStartTimes(
      change,
      guildId,
      gone.map((state) => state.channelId),
    );
  return [...byGuild.values()].reduce((total, gone) => total + gone.length, 0);
}

/** Connects a member to a voice or stage channel of their guild (moving them if connected elsewhere), for the CLI: no permission is checked. */
export async function joinVoice(ctx: ChangeContext, input: { channelId: string; userId: string; selfMute?: boolean; selfDeaf?: boolean }): Promise<VoiceState> {
  const channel = await ctx.db.channel.findUnique({ where: { id: input.channelId }, select: { guildId: true, type: true } });
  if (!channel?.guildId) throw new ApiError("UNKNOWN_CHANNEL");
  if (!VOICE_CHANNEL_TYPES.includes(channel.type)) throw new ApiError("INVALID_FORM_BODY", { message: "Not a voice channel" });
  const guildId = channel.guildId;
  return runChange(ctx, async (change) => {
    if (!(await readMember(change.tx, guildId, input.userId))) throw new ApiError("UNKNOWN_MEMBER");
    const before = await change.tx.voiceState.findUnique({ where: { guildId_userId: { guildId, userId: input.userId } } });
    const data = { channelId: input.channelId, selfMute: input.selfMute ?? false, selfDeaf: input.selfDeaf ?? false };
    const state = await change.tx.voiceState.upsert({
      where: { guildId_userId: { guildId, userId: input.userId } },
      create: { guildId, userId: input.userId, sessionId: randomBytes(16).toString("hex"), ...data },
      update: data,
    });
    await emitVoiceState(change, state);
    await followStartTimes(change, guildId, [before?.channelId ?? null, state.channelId]);
    return state;
  });
}

/** Disconnects a member from voice in a guild; false when they were not connected. */
export async function leaveVoice(ctx: ChangeContext, input: { guildId: string; userId: string }): Promise<boolean> {
  return runChange(ctx, async (change) => {
    const state = await change.tx.voiceState.findUnique({ where: { guildId_userId: input } });
    if (!state) return false;
    await disconnectVoiceStates(change, [state]);
    return true;
  });
}

/** Update Voice State (op 4) from a bot's gateway session. */
export type OwnVoiceStateUpdate = {
  guildId: string;
  /** Null disconnects. */
  channelId: string | null;
  selfMute: boolean;
  selfDeaf: boolean;
  gatewaySessionId: string;
};

/** What an update did: `connected` when the session was not connected in that guild before. */
export type OwnVoiceStateResult = "connected" | "moved" | "updated" | "disconnected" | "unchanged";

/**
 * A bot joins, moves in, changes its self mute and deafen in, or leaves a guild's voice, as
 * its gateway session asks. Joining or moving to a channel is held to voiceJoinDenial (its
 * ApiError says why); the voice state is then held by the session and ends with it.
 */
export async function updateOwnVoiceState(ctx: ServiceContext, input: OwnVoiceStateUpdate): Promise<OwnVoiceStateResult> {
  const { guildId, channelId } = input;
  const userId = ctx.actor.userId;
  const access = await loadGuildAccess(ctx, guildId);
  const where = { guildId_userId: { guildId, userId } };
  if (channelId === null) {
    return runChange(ctx, async (change) => {
      const state = await change.tx.voiceState.findUnique({ where });
      if (!state) return "unchanged";
      await disconnectVoiceStates(change, [state]);
      return "disconnected";
    });
  }
  const channel = (await access.state.channels()).byId.get(channelId);
  if (!channel) throw new ApiError("UNKNOWN_CHANNEL");
  return runChange(ctx, async (change) => {
    const before = await change.tx.voiceState.findUnique({ where });
    if (before?.channelId !== channelId) {
      const othersConnected = await change.tx.voiceState.count({ where: { guildId, channelId, userId: { not: userId } } });
      enforce(
        voiceJoinDenial(access, { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites), userLimit: channel.userLimit }, othersConnected),
      );
    } else if (before.selfMute === input.selfMute && before.selfDeaf === input.selfDeaf && before.gatewaySessionId === input.gatewaySessionId) {
      return "unchanged";
    }
    // The platform's voice state session_id is the gateway session's id.
    const data = { channelId, selfMute: input.selfMute, selfDeaf: input.selfDeaf, sessionId: input.gatewaySessionId, gatewaySessionId: input.gatewaySessionId };
    const state = await change.tx.voiceState.upsert({ where, create: { guildId, userId, ...data }, update: data });
    await emitVoiceState(change, state);
    await followStartTimes(change, guildId, [before?.channelId ?? null, channelId]);
    // A session connecting, or taking over a connection an ended session held, is told the voice server.
    if (before?.gatewaySessionId !== input.gatewaySessionId) return "connected";
    return before.channelId === channelId ? "updated" : "moved";
  });
}

/** Ids bound in one `IN (...)` list, under the 999 values SQLite allows a statement. */
const BATCH = 500;

/**
 * Disconnects the voice states whose gateway session ended (closed and not resumed in time, or
 * closed for good), as the platform does when a bot's session goes. Idempotent, so every
 * instance's housekeeping may run it; returns how many were disconnected.
 */
export async function disconnectEndedSessions(db: Db): Promise<number> {
  const held = await db.voiceState.findMany({ where: { gatewaySessionId: { not: null } }, distinct: ["gatewaySessionId"], select: { gatewaySessionId: true } });
  const sessionIds = held.map((row) => row.gatewaySessionId!);
  let disconnected = 0;
  for (let start = 0; start < sessionIds.length; start += BATCH) {
    const batch = sessionIds.slice(start, start + BATCH);
    const alive = await db.gatewaySession.findMany({ where: { id: { in: batch } }, select: { id: true } });
    const aliveIds = new Set(alive.map((row) => row.id));
    const ended = batch.filter((id) => !aliveIds.has(id));
    if (ended.length === 0) continue;
    const states = await db.voiceState.findMany({ where: { gatewaySessionId: { in: ended } } });
    disconnected += await runChange({ db, actor: null }, (change) => disconnectVoiceStates(change, states));
  }
  return disconnected;
}
