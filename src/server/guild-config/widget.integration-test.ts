import { ChannelType, OverwriteType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "~/env.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addMember, addPresences, makeBot, makeGuild, writeGuildState } from "~/test/factories.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { WIDGET_STYLE_SIZES, WIDGET_STYLES } from "./widget.schema.ts";

const app = useTestApp();
const MINUTE = 60 * 1000;

afterEach(() => {
  vi.useRealTimers();
});

async function setup() {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  const api = app.as(bot(owner.token));
  const channels = (await api.get<{ id: string; type: number }[]>(`/guilds/${guild.id}/channels`)).body;
  return {
    owner,
    guild,
    api,
    text: channels.find((c) => c.type === ChannelType.GuildText)!,
    voice: channels.find((c) => c.type === ChannelType.GuildVoice)!,
    category: channels.find((c) => c.type === ChannelType.GuildCategory)!,
  };
}

async function enableWidget(guildId: string, channelId: string | null = null) {
  await writeGuildState(app.db, guildId, (tx) => tx.guild.update({ where: { id: guildId }, data: { widgetEnabled: true, widgetChannelId: channelId } }));
}

/** Users who are members of the guild, shown with this status (offline: no session at all). */
async function addMembers(guildId: string, count: number, status: "online" | "idle" | "invisible" | "offline" = "online", prefix = "member") {
  const users = Array.from({ length: count }, (_, i) => ({ id: newId(), username: `${prefix}_${String(i).padStart(3, "0")}` }));
  await app.db.user.createMany({ data: users });
  await writeGuildState(app.db, guildId, (tx) => tx.member.createMany({ data: users.map((user) => ({ guildId, userId: user.id })) }));
  if (status !== "offline")
    await addPresences(
      app.db,
      users.map((user) => user.id),
      status,
    );
  return users;
}

/** widget.png as a browser fetches it: no credentials, the raw bytes. */
async function fetchImage(guildId: string, style?: string) {
  const query = style ? `?style=${style}` : "";
  const response = await app.dispatch(new Request(`http://guildhall.test/api/v10/guilds/${guildId}/widget.png${query}`));
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("widget settings", () => {
  it("are read and changed with MANAGE_GUILD, with Guild Update and an audit entry", async () => {
    const { guild, api, text } = await setup();
    expect((await api.get(`/guilds/${guild.id}/widget`)).body).toEqual({ enabled: false, channel_id: null });

    const saved = await api.patch(
      `/guilds/${guild.id}/widget`,
      { enabled: true, channel_id: text.id },
      { headers: { "x-audit-log-reason": "Show%20us%20off" } },
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ enabled: true, channel_id: text.id });
    expect((await api.get(`/guilds/${guild.id}/widget`)).body).toEqual({ enabled: true, channel_id: text.id });
    const guildObject = (await api.get(`/guilds/${guild.id}`)).body;
    expect(guildObject).toMatchObject({ widget_enabled: true, widget_channel_id: text.id });

    const updates = await app.db.event.findMany({ where: { guildId: guild.id, type: "GUILD_UPDATE" } });
    expect(updates).toHaveLength(1);
    expect(JSON.parse(updates[0]!.data)).toMatchObject({ widget_enabled: true, widget_channel_id: text.id });
    const log = await api.get(`/guilds/${guild.id}/audit-logs`, { query: { action_type: 1 } });
    expect(log.body.audit_log_entries).toHaveLength(1);
    expect(log.body.audit_log_entries[0]).toMatchObject({ target_id: guild.id, reason: "Show us off" });
    expect(log.body.audit_log_entries[0].changes).toEqual([
      { key: "widget_enabled", old_value: false, new_value: true },
      { key: "widget_channel_id", new_value: text.id },
    ]);

    // Nothing to change: no event, no entry.
    expect((await api.patch(`/guilds/${guild.id}/widget`, {})).body).toEqual({ enabled: true, channel_id: text.id });
    expect((await api.patch(`/guilds/${guild.id}/widget`, { enabled: true, channel_id: text.id })).body).toEqual({ enabled: true, channel_id: text.id });
    expect(await app.db.event.count({ where: { guildId: guild.id, type: "GUILD_UPDATE" } })).toBe(1);

    const cleared = await api.patch(`/guilds/${guild.id}/widget`, { channel_id: null });
    expect(cleared.body).toEqual({ enabled: true, channel_id: null });
    const entries = (await api.get(`/guilds/${guild.id}/audit-logs`, { query: { action_type: 1 } })).body.audit_log_entries;
    expect(entries[0].changes).toEqual([{ key: "widget_channel_id", old_value: text.id }]);
  });

  it("refuse members without MANAGE_GUILD, other guilds' bots, and channels that are not this guild's or cannot have invites", async () => {
    const { guild, api, category } = await setup();
    const member = await makeBot(app.db);
    await addMember(app.db, guild.id, member.user.id);
    const memberApi = app.as(bot(member.token));
    expect((await memberApi.get(`/guilds/${guild.id}/widget`)).body.code).toBe(50013);
    expect((await memberApi.patch(`/guilds/${guild.id}/widget`, { enabled: true })).body.code).toBe(50013);
    const other = await setup();
    expect((await other.api.get(`/guilds/${guild.id}/widget`)).body.code).toBe(50001);

    const foreign = await api.patch(`/guilds/${guild.id}/widget`, { enabled: true, channel_id: other.text.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors.channel_id._errors[0].code).toBe("CHANNEL_INVALID");
    expect((await api.patch(`/guilds/${guild.id}/widget`, { channel_id: category.id })).body.errors.channel_id).toBeDefined();
    expect((await api.patch(`/guilds/${guild.id}/widget`, { channel_id: "not a snowflake" })).body.errors.channel_id).toBeDefined();
    expect((await api.patch(`/guilds/${guild.id}/widget`, { enabled: "yes" })).body.errors.enabled).toBeDefined();
    // A refused body changes nothing, not even its valid half.
    expect((await api.get(`/guilds/${guild.id}/widget`)).body).toEqual({ enabled: false, channel_id: null });
    expect(await app.db.event.count({ where: { guildId: guild.id, type: "GUILD_UPDATE" } })).toBe(0);
  });
});

describe("GET /guilds/{guild.id}/widget.json", () => {
  it("needs no credentials, answers Widget Disabled while off, and Unknown Guild for no guild", async () => {
    const { guild } = await setup();
    const visitor = app.as();
    const off = await visitor.get(`/guilds/${guild.id}/widget.json`);
    expect(off.status).toBe(403);
    expect(off.body).toEqual({ code: 50004, message: "Widget Disabled" });
    expect((await visitor.get(`/guilds/${newId()}/widget.json`)).body.code).toBe(10004);

    await enableWidget(guild.id);
    const on = await visitor.get(`/guilds/${guild.id}/widget.json`);
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ id: guild.id, name: guild.name, instant_invite: null });
  });

  it("lists at most 100 online members, anonymised, while presence_count counts every online member", async () => {
    // The owner bot has no gateway session, so it is not online.
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    await enableWidget(guild.id);
    const online = await addMembers(guild.id, 104);
    await addMembers(guild.id, 3, "offline", "away");
    await addMembers(guild.id, 2, "invisible", "hidden");

    const widget = (await app.as().get(`/guilds/${guild.id}/widget.json`)).body;
    expect(widget.presence_count).toBe(104);
    expect(widget.members).toHaveLength(100);
    expect(widget.members.map((m: { id: string }) => m.id)).toEqual(Array.from({ length: 100 }, (_, i) => String(i)));
    for (const member of widget.members) {
      expect(member).toEqual({
        id: expect.any(String),
        username: expect.stringMatching(/^member_\d{3}$/),
        discriminator: "0000",
        avatar: null,
        status: "online",
        avatar_url: expect.stringMatching(/^https?:\/\//),
      });
    }
    const names = new Set(widget.members.map((m: { username: string }) => m.username));
    expect(online.filter((user) => names.has(user.username))).toHaveLength(100);
    expect(JSON.stringify(widget)).not.toContain(online[0]!.id);
  });

  it("shows each online member with the status their presence shows; invisible and offline members are left out", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    await enableWidget(guild.id);
    await addMembers(guild.id, 1, "online", "here");
    await addMembers(guild.id, 1, "idle", "away");
    await addMembers(guild.id, 1, "invisible", "hidden");
    const widget = (await app.as().get(`/guilds/${guild.id}/widget.json`)).body;
    expect(widget.presence_count).toBe(2);
    expect(widget.members.map((m: { username: string; status: string }) => [m.username, m.status])).toEqual([
      ["away_000", "idle"],
      ["here_000", "online"],
    ]);
  });

  it("shows voice and stage channels that @everyone can view, and who is in them", async () => {
    const { guild, api, voice } = await setup();
    await enableWidget(guild.id);
    const stage = (await api.post(`/guilds/${guild.id}/channels`, { name: "Town hall", type: ChannelType.GuildStageVoice, position: 5 })).body;
    const hidden = (
      await api.post(`/guilds/${guild.id}/channels`, {
        name: "Staff room",
        type: ChannelType.GuildVoice,
        permission_overwrites: [{ id: guild.id, type: OverwriteType.Role, allow: "0", deny: String(P.ViewChannel) }],
      })
    ).body;
    await api.post(`/guilds/${guild.id}/channels`, { name: "chatter", type: ChannelType.GuildText });
    const [talker, staffer] = await addMembers(guild.id, 2);
    await writeGuildState(app.db, guild.id, async (tx) => {
      await tx.member.update({ where: { guildId_userId: { guildId: guild.id, userId: talker!.id } }, data: { mute: true } });
      await tx.voiceState.createMany({
        data: [
          { guildId: guild.id, userId: talker!.id, channelId: voice.id, sessionId: "s1", selfDeaf: true },
          { guildId: guild.id, userId: staffer!.id, channelId: hidden.id, sessionId: "s2" },
        ],
      });
    });

    const widget = (await app.as().get(`/guilds/${guild.id}/widget.json`)).body;
    expect(widget.channels).toEqual([
      { id: voice.id, name: expect.any(String), position: expect.any(Number) },
      { id: stage.id, name: "Town hall", position: 5 },
    ]);
    const inVoice = widget.members.find((m: { username: string }) => m.username === talker!.username);
    expect(inVoice).toMatchObject({ channel_id: voice.id, mute: true, deaf: false, self_deaf: true, self_mute: false, suppress: false });
    const inHidden = widget.members.find((m: { username: string }) => m.username === staffer!.username);
    expect(inHidden.channel_id).toBeUndefined();
    expect(JSON.stringify(widget)).not.toContain(hidden.id);
  });

  it("makes one invite to the widget channel and hands it out again, until it is about to expire", async () => {
    const { guild, api, text } = await setup();
    await api.patch(`/guilds/${guild.id}/widget`, { enabled: true, channel_id: text.id });
    const first = (await app.as().get(`/guilds/${guild.id}/widget.json`)).body.instant_invite as string;
    const base = env().PUBLIC_BASE_URL.replace(/\/+$/, "");
    expect(first).toMatch(new RegExp(`^${base}/invite/[A-Za-z0-9]{10}$`));
    const code = first.split("/").at(-1)!;
    const invite = await app.as().get(`/invites/${code}`);
    expect(invite.body).toMatchObject({ code, channel: { id: text.id } });
    expect(invite.body.inviter).toBeUndefined();

    // A guild event drops the cached answer: the widget reads again and reuses its invite.
    await api.patch(`/guilds/${guild.id}`, { name: "Renamed guild" });
    const again = (await app.as().get(`/guilds/${guild.id}/widget.json`)).body;
    expect(again.name).toBe("Renamed guild");
    expect(again.instant_invite).toBe(first);
    expect(await app.db.event.count({ where: { guildId: guild.id, type: "INVITE_CREATE" } })).toBe(1);

    // With less than an hour of its day left, the widget makes a fresh invite.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 23.5 * 60 * MINUTE);
    await api.patch(`/guilds/${guild.id}`, { name: "Renamed again" });
    const later = (await app.as().get(`/guilds/${guild.id}/widget.json`)).body.instant_invite as string;
    expect(later).not.toBe(first);
    expect(await app.db.event.count({ where: { guildId: guild.id, type: "INVITE_CREATE" } })).toBe(2);
  });
});

describe("GET /guilds/{guild.id}/widget.png", () => {
  it("draws each style at its size as a PNG, without credentials", async () => {
    const { guild } = await setup();
    await enableWidget(guild.id);
    for (const style of WIDGET_STYLES) {
      const { response, bytes } = await fetchImage(guild.id, style);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("cache-control")).toMatch(/max-age=\d+/);
      const png = PNG.sync.read(bytes);
      expect({ width: png.width, height: png.height }, style).toEqual(WIDGET_STYLE_SIZES[style]);
    }
    const { bytes } = await fetchImage(guild.id);
    expect(PNG.sync.read(bytes).width).toBe(WIDGET_STYLE_SIZES.shield.width);
  });

  it("refuses an unknown style and a disabled widget", async () => {
    const { guild } = await setup();
    const visitor = app.as();
    expect((await visitor.get(`/guilds/${guild.id}/widget.png`)).body).toEqual({ code: 50004, message: "Widget Disabled" });
    await enableWidget(guild.id);
    const bad = await visitor.get(`/guilds/${guild.id}/widget.png`, { query: { style: "banner9" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(50035);
    expect(bad.body.errors.style._errors[0].code).toBe("BASE_TYPE_CHOICES");
  });

  it("is drawn again when the online count moves or the guild changes, with the guild's icon", async () => {
    const { guild, api } = await setup();
    await enableWidget(guild.id);
    const first = (await fetchImage(guild.id, "banner1")).bytes;
    await addMembers(guild.id, 5);
    const busier = (await fetchImage(guild.id, "banner1")).bytes;
    expect(busier.equals(first)).toBe(false);
    await api.patch(`/guilds/${guild.id}`, { name: "Another name" });
    expect((await fetchImage(guild.id, "banner1")).bytes.equals(busier)).toBe(false);

    // A red icon: its middle is drawn where the icon sits (left, vertically centred in the top part).
    const icon = new PNG({ width: 64, height: 64 });
    for (let i = 0; i < icon.data.length; i += 4) icon.data.set([220, 30, 30, 255], i);
    const updated = await api.patch(`/guilds/${guild.id}`, { icon: `data:image/png;base64,${PNG.sync.write(icon).toString("base64")}` });
    expect(updated.body.icon).toMatch(/^[0-9a-f]{32}$/);
    const drawn = PNG.sync.read((await fetchImage(guild.id, "banner1")).bytes);
    const at = (x: number, y: number) => Array.from(drawn.data.subarray((y * drawn.width + x) * 4, (y * drawn.width + x) * 4 + 3));
    const [red, green, blue] = at(45, 52);
    expect(red).toBeGreaterThan(180);
    expect(green).toBeLessThan(80);
    expect(blue).toBeLessThan(80);
  });
});
