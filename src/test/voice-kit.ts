// Voice over the gateway in tests: a guild where a bot under test and a watching bot have
// sessions, op 4 sent raw, and the voice events a session reads.
import { ChannelType, GatewayDispatchEvents as E, GatewayIntentBits as I, GatewayOpcodes, type GatewayReadyDispatchData } from "discord-api-types/v10";
import { expect } from "vitest";
import { addMember, makeBot } from "./factories.ts";
import { botInGuilds, identified, type Frame, type GatewayClient, type GatewayServer } from "./gateway-kit.ts";
import { bot as botAuth } from "./rest-client.ts";
import type { TestApp } from "./test-app.ts";

const intents = I.Guilds | I.GuildVoiceStates;

export type VoiceStateData = { guild_id?: string; channel_id: string | null; user_id: string; session_id: string; self_mute: boolean; mute: boolean };

/** A guild where `voice` (the bot under test) and `watcher` (another bot) have sessions; the owner changes things over REST. */
export async function voiceGuild(app: TestApp, servers: { voice: GatewayServer; watcher: GatewayServer }) {
  const { owner, bot: voice, guildIds } = await botInGuilds(app, 1);
  const guildId = guildIds[0]!;
  const watcher = await makeBot(app.db);
  await addMember(app.db, guildId, watcher.user.id);
  const rest = app.as(botAuth(owner.token));
  const createVoice = async (fields: Record<string, unknown> = {}) => {
    const created = await rest.post(`/guilds/${guildId}/channels`, { name: "room", type: ChannelType.GuildVoice, ...fields });
    expect(created.status).toBe(200);
    return (created.body as { id: string }).id;
  };
  const voiceSession = await identified(servers.voice, voice.token, { intents });
  await voiceSession.client.dispatch("GUILD_CREATE");
  const watcherSession = await identified(servers.watcher, watcher.token, { intents });
  await watcherSession.client.dispatch("GUILD_CREATE");
  return {
    owner,
    voice,
    watcher,
    guildId,
    rest,
    createVoice,
    client: voiceSession.client,
    sessionId: (voiceSession.ready.d as GatewayReadyDispatchData).session_id,
    watching: watcherSession.client,
  };
}

export function updateVoice(client: GatewayClient, guildId: string, channelId: string | null, self: { mute?: boolean; deaf?: boolean } = {}) {
  client.send({
    op: GatewayOpcodes.VoiceStateUpdate,
    d: { guild_id: guildId, channel_id: channelId, self_mute: self.mute ?? false, self_deaf: self.deaf ?? false },
  });
}

const VOICE_EVENTS: readonly string[] = [E.VoiceStateUpdate, E.VoiceChannelStartTimeUpdate];

/** Reads dispatches until one matches, returning the voice events read on the way (the match last). */
export async function readUntil(client: GatewayClient, match: (frame: Frame) => boolean): Promise<Frame[]> {
  const read: Frame[] = [];
  for (;;) {
    const frame = await client.next();
    if (frame.op !== GatewayOpcodes.Dispatch || !VOICE_EVENTS.includes(frame.t!)) continue;
    read.push(frame);
    if (match(frame)) return read;
  }
}

export const voiceStateOf = (frame: Frame) => frame.d as VoiceStateData;
export const isVoiceState = (userId: string, channelId: string | null) => (frame: Frame) =>
  frame.t === E.VoiceStateUpdate && voiceStateOf(frame).user_id === userId && voiceStateOf(frame).channel_id === channelId;
