import { AuditLogEvent, ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { joinVoice } from "~/server/members/voice.service.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { MISSING_ACCESS, MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);

const statusOf = async (channelId: string) => (await app.db.channel.findUniqueOrThrow({ where: { id: channelId } })).voiceStatus;

describe("PUT /channels/{channel.id}/voice-status", () => {
  it("sets a status and clears it, with Voice Channel Status Update and audit entries 192 and 193", async () => {
    const { owner, guild, api, voice } = await kit.setup();
    const path = `/channels/${voice.id}/voice-status`;
    const set = await api.put(path, { status: "Raid night 🎮" }, { headers: { "x-audit-log-reason": "event" } });
    expect(set.status).toBe(204);
    expect(set.body).toBe("");
    expect(await statusOf(voice.id)).toBe("Raid night 🎮");

    expect((await api.put(path, { status: "" })).status).toBe(204);
    expect(await statusOf(voice.id)).toBeNull();
    await api.put(path, { status: "Back soon" });
    expect((await api.put(path, { status: null })).status).toBe(204);
    expect(await statusOf(voice.id)).toBeNull();

    expect(await kit.eventsOf(guild.id, GatewayDispatchEvents.VoiceChannelStatusUpdate)).toEqual([
      { id: voice.id, guild_id: guild.id, status: "Raid night 🎮" },
      { id: voice.id, guild_id: guild.id, status: null },
      { id: voice.id, guild_id: guild.id, status: "Back soon" },
      { id: voice.id, guild_id: guild.id, status: null },
    ]);
    const updates = await kit.auditOf(guild.id, AuditLogEvent.VoiceChannelStatusCreate);
    expect(updates.map((e) => e.options)).toEqual([
      { channel_id: voice.id, status: "Raid night 🎮" },
      { channel_id: voice.id, status: "Back soon" },
    ]);
    expect(updates[0]).toMatchObject({ userId: owner.user.id, targetId: voice.id, reason: "event" });
    const deletes = await kit.auditOf(guild.id, AuditLogEvent.VoiceChannelStatusDelete);
    expect(deletes.map((e) => e.options)).toEqual([{ channel_id: voice.id }, { channel_id: voice.id }]);
  });

  it("takes at most 500 characters", async () => {
    const { api, voice } = await kit.setup();
    const path = `/channels/${voice.id}/voice-status`;
    const tooLong = await api.put(path, { status: "x".repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.code).toBe(50035);
    expect(tooLong.body.errors.status._errors[0].code).toBe("BASE_TYPE_BAD_LENGTH");
    expect((await api.put(path, { status: 42 })).body.errors.status).toBeDefined();
    expect(await statusOf(voice.id)).toBeNull();
    // Characters, not UTF-16 units: 500 emoji fit.
    expect((await api.put(path, { status: "🎧".repeat(500) })).status).toBe(204);
  });

  it("is for voice channels only", async () => {
    const { guild, api, text } = await kit.setup();
    const stage = await kit.addChannel(guild.id, ChannelType.GuildStageVoice);
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "chat" })).body;
    for (const id of [text.id, stage.id, thread.id]) {
      const res = await api.put(`/channels/${id}/voice-status`, { status: "hi" });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(50024);
    }
    expect((await api.put(`/channels/${newId()}/voice-status`, { status: "hi" })).body.code).toBe(10003);
  });

  it("needs SET_VOICE_CHANNEL_STATUS, and MANAGE_CHANNELS only when not connected to that channel", async () => {
    const { guild, voice } = await kit.setup();
    await kit.setEveryone(guild.id, P.ViewChannel | P.Connect);
    const other = await kit.voiceChannel(guild.id);
    const speaker = await kit.addBotWithRole(guild.id, P.SetVoiceChannelStatus);
    const manager = await kit.addBotWithRole(guild.id, P.ManageChannels, 6);
    const path = `/channels/${voice.id}/voice-status`;

    expect((await speaker.api.put(path, { status: "from afar" })).body).toEqual(MISSING_PERMISSIONS);
    await joinVoice({ db: app.db, actor: null }, { channelId: voice.id, userId: speaker.user.id });
    expect((await speaker.api.put(path, { status: "from inside" })).status).toBe(204);
    expect(await statusOf(voice.id)).toBe("from inside");
    await joinVoice({ db: app.db, actor: null }, { channelId: other.id, userId: speaker.user.id });
    expect((await speaker.api.put(path, { status: "from next door" })).body).toEqual(MISSING_PERMISSIONS);

    // MANAGE_CHANNELS alone is not enough, connected or not.
    await joinVoice({ db: app.db, actor: null }, { channelId: voice.id, userId: manager.user.id });
    expect((await manager.api.put(path, { status: "mine" })).body).toEqual(MISSING_PERMISSIONS);
    await kit.addOverwrite(voice.id, guild.id, { id: manager.role.id, type: 0, allow: P.SetVoiceChannelStatus });
    await joinVoice({ db: app.db, actor: null }, { channelId: other.id, userId: manager.user.id });
    expect((await manager.api.put(path, { status: "managed" })).status).toBe(204);

    // Without CONNECT neither permission counts in a voice channel.
    await kit.addOverwrite(other.id, guild.id, { id: manager.role.id, type: 0, allow: P.SetVoiceChannelStatus });
    await kit.addOverwrite(other.id, guild.id, { id: guild.id, type: 0, deny: P.Connect });
    expect((await manager.api.put(`/channels/${other.id}/voice-status`, { status: "locked out" })).body).toEqual(MISSING_PERMISSIONS);
    const outsider = await kit.setup();
    expect((await outsider.api.put(path, { status: "intruder" })).body).toEqual(MISSING_ACCESS);
    expect(await statusOf(voice.id)).toBe("managed");
  });

  it("is shown and set from the dashboard, with what blocks the user", async () => {
    const { guild, api, voice } = await kit.setup();
    await api.put(`/channels/${voice.id}/voice-status`, { status: "Open mic" });
    const user = await kit.addUser(guild.id);
    const caller = createCaller({ db: app.db, userId: user.user.id });
    expect(await caller.voiceStatus.list({ guildId: guild.id })).toEqual([{ channelId: voice.id, status: "Open mic", blockedBy: "ManageChannels" }]);
    await expect(caller.voiceStatus.set({ channelId: voice.id, body: { status: "nope" } })).rejects.toMatchObject({ cause: { code: 50013 } });

    await joinVoice({ db: app.db, actor: null }, { channelId: voice.id, userId: user.user.id });
    expect((await caller.voiceStatus.list({ guildId: guild.id }))[0]!.blockedBy).toBeNull();
    await caller.voiceStatus.set({ channelId: voice.id, body: { status: "Karaoke" }, reason: "weekly" });
    expect(await caller.voiceStatus.list({ guildId: guild.id })).toEqual([{ channelId: voice.id, status: "Karaoke", blockedBy: null }]);
    await expect(caller.voiceStatus.set({ channelId: voice.id, body: { status: "x".repeat(501) } })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
