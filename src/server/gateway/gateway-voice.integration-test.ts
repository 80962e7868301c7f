import {
  ChannelType,
  GatewayCloseCodes,
  GatewayDispatchEvents as E,
  GatewayIntentBits as I,
  GatewayOpcodes,
  PermissionFlagsBits as P,
} from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { resetBotToken } from "~/server/auth/tokens.service.ts";
import { joinVoice } from "~/server/members/voice.service.ts";
import { identified, useGatewayServer, type Frame } from "~/test/gateway-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { isVoiceState, readUntil, updateVoice, voiceGuild, voiceStateOf, type VoiceStateData } from "~/test/voice-kit.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";

const app = useTestApp();
const sessionStart = { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 };
const router = () => createEventRouter({ db: app.db });
const server = useGatewayServer(app, { router, limits: { sessionStart } });
const inGuild = () => voiceGuild(app, { voice: server, watcher: server });

const startTimesIn = (frames: Frame[]) =>
  new Map(
    frames
      .filter((frame) => frame.t === E.VoiceChannelStartTimeUpdate)
      .map((frame) => {
        const d = frame.d as { id: string; voice_start_time: number | null };
        return [d.id, d.voice_start_time];
      }),
  );

describe("Update Voice State (op 4)", () => {
  it("joins, changes self mute, moves and leaves: the guild hears each, with the channels' start times", async () => {
    const { voice, guildId, client, sessionId, watching, createVoice } = await inGuild();
    const first = await createVoice();
    const second = await createVoice();
    const before = Math.floor(Date.now() / 1000);

    updateVoice(client, guildId, first);
    const voiceServer = await client.dispatch(E.VoiceServerUpdate);
    // No voice server: the platform's null endpoint, to this session only.
    expect(voiceServer.d).toEqual({ token: expect.any(String), guild_id: guildId, endpoint: null });
    const joined = await readUntil(watching, (frame) => frame.t === E.VoiceChannelStartTimeUpdate);
    expect(joined.map((frame) => frame.t)).toEqual([E.VoiceStateUpdate, E.VoiceChannelStartTimeUpdate]);
    expect(joined[0]!.d).toMatchObject({ guild_id: guildId, channel_id: first, user_id: voice.user.id, session_id: sessionId, self_mute: false });
    expect(joined[1]!.d).toEqual({ id: first, guild_id: guildId, voice_start_time: expect.any(Number) });
    const started = (joined[1]!.d as { voice_start_time: number }).voice_start_time;
    expect(started).toBeGreaterThanOrEqual(before);

    updateVoice(client, guildId, first, { mute: true });
    const muted = await watching.dispatch(E.VoiceStateUpdate);
    expect(muted.d).toMatchObject({ channel_id: first, user_id: voice.user.id, self_mute: true });

    updateVoice(client, guildId, second, { mute: true });
    const moved = await watching.waitFor(isVoiceState(voice.user.id, second), "the move");
    expect(voiceStateOf(moved).self_mute).toBe(true);
    const [a, b] = [await watching.next(), await watching.next()];
    // The channel left empty loses its start time; the one joined gets one.
    expect(startTimesIn([a, b])).toEqual(
      new Map([
        [first, null],
        [second, expect.any(Number)],
      ]),
    );

    updateVoice(client, guildId, null);
    const left = await readUntil(watching, (frame) => frame.t === E.VoiceChannelStartTimeUpdate);
    expect(left.map((frame) => frame.t)).toEqual([E.VoiceStateUpdate, E.VoiceChannelStartTimeUpdate]);
    expect(left[0]!.d).toMatchObject({ channel_id: null, user_id: voice.user.id });
    expect(left[1]!.d).toEqual({ id: second, guild_id: guildId, voice_start_time: null });
    expect(await app.db.voiceState.count({ where: { guildId } })).toBe(0);
    // Only a join is told about the voice server.
    expect(client.unread().filter((frame) => frame.t === E.VoiceServerUpdate)).toEqual([]);
  });

  it("is ignored without CONNECT in the channel, as on the platform", async () => {
    const { voice, guildId, client, watching, createVoice } = await inGuild();
    const locked = await createVoice({ permission_overwrites: [{ id: guildId, type: 0, deny: String(P.Connect) }] });
    const open = await createVoice();

    updateVoice(client, guildId, locked);
    updateVoice(client, guildId, open);
    const seen = await readUntil(watching, isVoiceState(voice.user.id, open));
    updateVoice(client, guildId, null);
    seen.push(...(await readUntil(watching, isVoiceState(voice.user.id, null))));
    const channels = seen.filter((frame) => frame.t === E.VoiceStateUpdate).map((frame) => voiceStateOf(frame).channel_id);
    expect(channels).toEqual([open, null]);
    // One voice server answer: the allowed join's.
    await client.dispatch(E.VoiceServerUpdate);
    expect(client.unread().filter((frame) => frame.t === E.VoiceServerUpdate)).toEqual([]);
  });

  it("is ignored in a channel at its user limit, unless the bot may move members there", async () => {
    const { voice, watcher, guildId, client, watching, createVoice, owner } = await inGuild();
    const full = await createVoice({ user_limit: 1, permission_overwrites: [{ id: watcher.user.id, type: 1, allow: String(P.MoveMembers) }] });
    const open = await createVoice();
    await joinVoice({ db: app.db, actor: null }, { channelId: full, userId: owner.user.id });
    await watching.waitFor(isVoiceState(owner.user.id, full), "the owner's join");

    updateVoice(client, guildId, full);
    updateVoice(client, guildId, open);
    const seen = await readUntil(watching, isVoiceState(voice.user.id, open));
    updateVoice(client, guildId, null);
    seen.push(...(await readUntil(watching, isVoiceState(voice.user.id, null))));
    const channels = seen.filter((frame) => frame.t === E.VoiceStateUpdate).map((frame) => voiceStateOf(frame).channel_id);
    expect(channels).toEqual([open, null]);

    // MOVE_MEMBERS in the channel bypasses its limit.
    updateVoice(watching, guildId, full);
    await watching.dispatch(E.VoiceServerUpdate);
    expect(await app.db.voiceState.count({ where: { guildId, channelId: full } })).toBe(2);
  });

  it("puts the connected members' voice states in GUILD_CREATE, without guild_id", async () => {
    const { voice, guildId, client, sessionId, watcher, watching, createVoice } = await inGuild();
    const room = await createVoice();
    updateVoice(client, guildId, room, { deaf: true });
    await watching.waitFor(isVoiceState(voice.user.id, room), "the join");

    const again = await identified(server, watcher.token, { intents: I.Guilds | I.GuildVoiceStates });
    const guild = (await again.client.dispatch("GUILD_CREATE")).d as { voice_states: VoiceStateData[] };
    expect(guild.voice_states).toEqual([expect.objectContaining({ channel_id: room, user_id: voice.user.id, session_id: sessionId, self_deaf: true })]);
    expect(guild.voice_states[0]).not.toHaveProperty("guild_id");
  });

  it("disconnects the bot at once when its session is closed for good (its token reset)", async () => {
    const { voice, guildId, client, watching, createVoice } = await inGuild();
    const room = await createVoice();
    updateVoice(client, guildId, room);
    await watching.waitFor(isVoiceState(voice.user.id, room), "the join");

    await resetBotToken({ db: app.db, actor: null }, { id: voice.application.id, botUserId: voice.user.id });
    expect(await client.closeCode()).toBe(GatewayCloseCodes.AuthenticationFailed);
    await watching.waitFor(isVoiceState(voice.user.id, null), "the disconnect");
    expect(await app.db.voiceState.count({ where: { guildId } })).toBe(0);
  });

  it("closes the connection with 4002 for a payload of the wrong shape", async () => {
    const { client, guildId } = await inGuild();
    client.send({ op: GatewayOpcodes.VoiceStateUpdate, d: { guild_id: guildId, channel_id: 5 } });
    expect(await client.closeCode()).toBe(4002);
  });
});

describe("member mute and move over REST, on the state the gateway set", () => {
  it("server-mutes and moves the bot the gateway connected, and still refuses a member not in voice", async () => {
    const { voice, watcher, guildId, client, watching, createVoice, rest } = await inGuild();
    const room = await createVoice();
    const other = await createVoice();
    updateVoice(client, guildId, room);
    await watching.waitFor(isVoiceState(voice.user.id, room), "the join");

    expect((await rest.patch(`/guilds/${guildId}/members/${voice.user.id}`, { mute: true })).status).toBe(200);
    const muted = await watching.waitFor((frame) => frame.t === E.VoiceStateUpdate, "the server mute");
    expect(muted.d).toMatchObject({ channel_id: room, user_id: voice.user.id, mute: true });

    expect((await rest.patch(`/guilds/${guildId}/members/${voice.user.id}`, { channel_id: other })).status).toBe(200);
    await watching.waitFor(isVoiceState(voice.user.id, other), "the move");

    const notInVoice = await rest.patch(`/guilds/${guildId}/members/${watcher.user.id}`, { mute: true });
    expect(notInVoice.status).toBe(400);
  });

  it("disconnects the bot from REST, and when its channel is deleted; the emptied channel loses its start time", async () => {
    const { voice, guildId, client, watching, createVoice, rest } = await inGuild();
    const room = await createVoice();
    updateVoice(client, guildId, room);
    await watching.waitFor(isVoiceState(voice.user.id, room), "the join");
    await watching.dispatch(E.VoiceChannelStartTimeUpdate);

    expect((await rest.patch(`/guilds/${guildId}/members/${voice.user.id}`, { channel_id: null })).status).toBe(200);
    const disconnected = await readUntil(watching, (frame) => frame.t === E.VoiceChannelStartTimeUpdate);
    expect(disconnected.map((frame) => frame.d)).toEqual([
      expect.objectContaining({ channel_id: null, user_id: voice.user.id }),
      { id: room, guild_id: guildId, voice_start_time: null },
    ]);

    updateVoice(client, guildId, room);
    await watching.waitFor(isVoiceState(voice.user.id, room), "the join again");
    expect((await rest.delete(`/channels/${room}`)).status).toBe(200);
    await watching.waitFor(isVoiceState(voice.user.id, null), "the disconnect with the channel");
    expect(await app.db.voiceState.count({ where: { guildId } })).toBe(0);
  });
});

describe("Request Channel Info (op 43)", () => {
  it("answers with the status and start time of the voice channels the bot can view, only the fields asked for", async () => {
    const { guildId, client, watching, watcher, createVoice, rest, owner } = await inGuild();
    const room = await createVoice();
    const quiet = await createVoice();
    const hidden = await createVoice({ permission_overwrites: [{ id: watcher.user.id, type: 1, deny: String(P.ViewChannel) }] });
    expect((await rest.put(`/channels/${room}/voice-status`, { status: "Planning" })).status).toBe(204);
    await joinVoice({ db: app.db, actor: null }, { channelId: room, userId: owner.user.id });
    await watching.waitFor((frame) => frame.t === E.VoiceChannelStartTimeUpdate, "the start time");
    const general = (await app.db.channel.findFirstOrThrow({ where: { guildId, type: ChannelType.GuildVoice, name: "General" } })).id;

    watching.send({ op: GatewayOpcodes.RequestChannelInfo, d: { guild_id: guildId, fields: ["status", "voice_start_time"] } });
    const info = (await watching.dispatch(E.ChannelInfo)).d as { guild_id: string; channels: { id: string }[] };
    expect(info.guild_id).toBe(guildId);
    expect(new Map(info.channels.map((channel) => [channel.id, channel]))).toEqual(
      new Map([
        [general, { id: general, status: null, voice_start_time: null }],
        [room, { id: room, status: "Planning", voice_start_time: expect.any(Number) }],
        [quiet, { id: quiet, status: null, voice_start_time: null }],
      ]),
    );
    expect(info.channels.map((channel) => channel.id)).not.toContain(hidden);

    client.send({ op: GatewayOpcodes.RequestChannelInfo, d: { guild_id: guildId, fields: ["status"] } });
    const statusOnly = (await client.dispatch(E.ChannelInfo)).d as { channels: { id: string }[] };
    expect(statusOnly.channels).toContainEqual({ id: room, status: "Planning" });
    expect(statusOnly.channels.map((channel) => channel.id)).toContain(hidden);
  });
});
