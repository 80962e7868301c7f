import {
  ActivityType,
  ChannelType,
  GatewayIntentBits as I,
  GatewayOpcodes,
  OverwriteType,
  PermissionFlagsBits as P,
  type APIInvite,
  type APIUser,
  type GatewayGuildMemberAddDispatchData,
  type GatewayMessageCreateDispatchData,
  type GatewayPresenceUpdateDispatchData,
  type GatewayVoiceStateUpdateDispatchData,
} from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepSessions } from "~/server/gateway/session-store.ts";
import { disconnectEndedSessions } from "~/server/members/voice.service.ts";
import { GatewayClient, type Frame } from "~/test/gateway-kit.ts";
import type { TwinServer } from "~/server/twin/twin-server.ts";
import { startTestTwin } from "~/test/twin-kit.ts";

const INTENTS = I.Guilds | I.GuildMembers | I.GuildMessages | I.MessageContent | I.GuildPresences | I.GuildVoiceStates;
const UNKNOWN_ID = "1234567890123456789";
const DAY_MS = 24 * 60 * 60 * 1000;
const RESUMABLE_MS = 5 * 60_000;

let twin: TwinServer;
let bot: GatewayClient;
let heartbeat: NodeJS.Timeout;

type Answer<T = any> = { status: number; body: T };

async function call<T = any>(url: string, authorization: string, method: string, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(url, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** The twin namespace, with its admin token. */
const twinCall = <T = any>(method: string, path: string, body?: unknown) =>
  call<T>(`${twin.info.twin_url}${path}`, `Twin ${twin.info.twin_token}`, method, body);
/** The REST API as the twin's bot. */
const botCall = <T = any>(method: string, path: string, body?: unknown) =>
  call<T>(`${twin.info.base_url}/v10${path}`, `Bot ${twin.info.bot_token}`, method, body);

async function person(username: string): Promise<APIUser> {
  const answer = await twinCall<{ user: APIUser }>("POST", "/users", { username });
  expect(answer.status).toBe(201);
  return answer.body.user;
}

/** The bot's next dispatch of type `t` matching `match`. */
function heard<T>(t: string, match: (data: T) => boolean): Promise<T> {
  return bot.waitFor((frame: Frame) => frame.op === 0 && frame.t === t && match(frame.d as T), `a ${t}`).then((frame) => frame.d as T);
}

beforeAll(async () => {
  twin = await startTestTwin();
  bot = await GatewayClient.connect(`${twin.info.gateway_url}?v=10&encoding=json`, false);
  const hello = await bot.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
  const interval = (hello.d as { heartbeat_interval: number }).heartbeat_interval;
  heartbeat = setInterval(() => bot.send({ op: GatewayOpcodes.Heartbeat, d: null }), interval / 2);
  bot.identify({ token: twin.info.bot_token, intents: INTENTS });
  await bot.dispatch("READY");
  await bot.dispatch("GUILD_CREATE");
});

afterAll(async () => {
  clearInterval(heartbeat);
  bot?.terminate();
  await twin?.stop();
});

describe("acting as people", () => {
  it("makes a user, with a bearer token for an application when asked", async () => {
    const made = await twinCall("POST", "/users", { username: "ada.l", global_name: "Ada", bearer_for_application: twin.info.application_id });
    expect(made.status).toBe(201);
    expect(made.body.user).toMatchObject({ username: "ada.l", global_name: "Ada", discriminator: "0" });
    expect(made.body.user.bot).toBeUndefined();
    const me = await call(`${twin.info.base_url}/v10/users/@me`, `Bearer ${made.body.bearer_token}`, "GET");
    expect(me.body).toMatchObject({ id: made.body.user.id, username: "ada.l" });
  });

  it("joins the bot's guild: the bot hears GUILD_MEMBER_ADD; again is 204; leaving is GUILD_MEMBER_REMOVE", async () => {
    const grace = await person("grace");
    const path = `/guilds/${twin.info.guild_id}/members/${grace.id}`;
    const joined = await twinCall("PUT", path);
    expect(joined.status).toBe(201);
    expect(joined.body.user).toMatchObject({ id: grace.id, username: "grace" });
    const added = await heard<GatewayGuildMemberAddDispatchData>("GUILD_MEMBER_ADD", (d) => d.user.id === grace.id);
    expect(added).toMatchObject({ guild_id: twin.info.guild_id, user: { username: "grace" } });
    expect((await twinCall("PUT", path)).status).toBe(204);
    expect((await twinCall("DELETE", path)).status).toBe(204);
    await heard<{ user: APIUser }>("GUILD_MEMBER_REMOVE", (d) => d.user.id === grace.id);
    expect((await twinCall("DELETE", path)).body.code).toBe(10007);
  });

  it("posts as the user: the bot hears MESSAGE_CREATE from a person, with its content", async () => {
    const channel = (await botCall("POST", `/guilds/${twin.info.guild_id}/channels`, { name: "chat", type: ChannelType.GuildText })).body;
    const posted = await twinCall("POST", `/channels/${channel.id}/messages`, { user_id: twin.info.user_id, content: "hello bot" });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({ content: "hello bot", author: { id: twin.info.user_id } });
    const created = await heard<GatewayMessageCreateDispatchData>("MESSAGE_CREATE", (d) => d.id === posted.body.id);
    expect(created.content).toBe("hello bot");
    expect(created.author.id).toBe(twin.info.user_id);
    expect(created.author.bot).toBeUndefined();
    expect(created.member).toBeDefined();
  });

  it("refuses a post the user's permissions forbid (403 50013), and nothing is dispatched", async () => {
    const guildId = twin.info.guild_id;
    const quiet = (
      await botCall("POST", `/guilds/${guildId}/channels`, {
        name: "quiet",
        type: ChannelType.GuildText,
        permission_overwrites: [{ id: twin.info.user_id, type: OverwriteType.Member, deny: String(P.SendMessages) }],
      })
    ).body;
    const open = (await botCall("POST", `/guilds/${guildId}/channels`, { name: "open", type: ChannelType.GuildText })).body;
    const refused = await twinCall("POST", `/channels/${quiet.id}/messages`, { user_id: twin.info.user_id, content: "shh" });
    expect(refused).toMatchObject({ status: 403, body: { code: 50013 } });
    const marker = await twinCall("POST", `/channels/${open.id}/messages`, { user_id: twin.info.user_id, content: "marker" });
    // Dispatches arrive in commit order: the first message in either channel is the marker.
    const first = await heard<GatewayMessageCreateDispatchData>("MESSAGE_CREATE", (d) => d.channel_id === quiet.id || d.id === marker.body.id);
    expect(first.id).toBe(marker.body.id);
  });

  it("accepts an invite the bot made: GUILD_MEMBER_ADD, and the invite counts the use", async () => {
    const channels = (await botCall<{ id: string; type: number }[]>("GET", `/guilds/${twin.info.guild_id}/channels`)).body;
    const text = channels.find((c) => c.type === ChannelType.GuildText)!;
    const invite = (await botCall<APIInvite>("POST", `/channels/${text.id}/invites`, { max_uses: 5 })).body;
    const linus = await person("linus");
    const accepted = await twinCall("POST", `/invites/${invite.code}/accept`, { user_id: linus.id });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ code: invite.code, guild: { id: twin.info.guild_id }, new_member: true });
    await heard<GatewayGuildMemberAddDispatchData>("GUILD_MEMBER_ADD", (d) => d.user.id === linus.id);
    const invites = (await botCall<{ code: string; uses: number }[]>("GET", `/channels/${text.id}/invites`)).body;
    expect(invites.find((i) => i.code === invite.code)?.uses).toBe(1);
    expect((await twinCall("POST", `/invites/${invite.code}/accept`, { user_id: linus.id })).body.new_member).toBe(false);
    expect((await twinCall("POST", "/invites/nosuchcode/accept", { user_id: linus.id })).body.code).toBe(10006);
  });

  it("joins and leaves voice: the bot hears VOICE_STATE_UPDATE each time", async () => {
    const guildId = twin.info.guild_id;
    const voice = (await botCall("POST", `/guilds/${guildId}/channels`, { name: "Lounge", type: ChannelType.GuildVoice })).body;
    const path = `/guilds/${guildId}/voice-states/${twin.info.user_id}`;
    const joined = await twinCall("PUT", path, { channel_id: voice.id, self_mute: true });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ guild_id: guildId, channel_id: voice.id, user_id: twin.info.user_id, self_mute: true, self_deaf: false });
    const connected = await heard<GatewayVoiceStateUpdateDispatchData>("VOICE_STATE_UPDATE", (d) => d.user_id === twin.info.user_id);
    expect(connected).toMatchObject({ channel_id: voice.id, self_mute: true, session_id: joined.body.session_id });
    expect((await twinCall("PUT", path, { channel_id: null })).status).toBe(204);
    const left = await heard<GatewayVoiceStateUpdateDispatchData>("VOICE_STATE_UPDATE", (d) => d.user_id === twin.info.user_id);
    expect(left.channel_id).toBeNull();
  });

  it("refuses voice the user may not connect to (403 50013)", async () => {
    const guildId = twin.info.guild_id;
    const locked = (
      await botCall("POST", `/guilds/${guildId}/channels`, {
        name: "Locked",
        type: ChannelType.GuildVoice,
        permission_overwrites: [{ id: twin.info.user_id, type: OverwriteType.Member, deny: String(P.Connect) }],
      })
    ).body;
    const refused = await twinCall("PUT", `/guilds/${guildId}/voice-states/${twin.info.user_id}`, { channel_id: locked.id });
    expect(refused).toMatchObject({ status: 403, body: { code: 50013 } });
  });

  it("sets a presence with an activity: PRESENCE_UPDATE; offline shows the user offline", async () => {
    const path = `/users/${twin.info.user_id}/presence`;
    const set = await twinCall("PUT", path, { status: "online", activities: [{ name: "Chess" }] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ status: "online", activities: [{ name: "Chess", type: ActivityType.Playing }] });
    const online = await heard<GatewayPresenceUpdateDispatchData>("PRESENCE_UPDATE", (d) => d.user.id === twin.info.user_id);
    expect(online).toMatchObject({ guild_id: twin.info.guild_id, status: "online", activities: [{ name: "Chess", type: ActivityType.Playing }] });
    expect((await twinCall("PUT", path, { status: "dnd" })).status).toBe(200);
    expect((await heard<GatewayPresenceUpdateDispatchData>("PRESENCE_UPDATE", (d) => d.user.id === twin.info.user_id)).status).toBe("dnd");
    expect((await twinCall("PUT", path, { status: "offline" })).body.status).toBe("offline");
    const offline = await heard<GatewayPresenceUpdateDispatchData>("PRESENCE_UPDATE", (d) => d.user.id === twin.info.user_id);
    expect(offline).toMatchObject({ status: "offline", activities: [] });
  });

  it("answers unknown users, guilds, channels and invites with their 404s", async () => {
    const guildId = twin.info.guild_id;
    const userId = twin.info.user_id;
    const cases: [string, string, unknown, number][] = [
      ["PUT", `/guilds/${guildId}/members/${UNKNOWN_ID}`, undefined, 10013],
      ["PUT", `/guilds/${UNKNOWN_ID}/members/${userId}`, undefined, 10004],
      ["DELETE", `/guilds/${UNKNOWN_ID}/members/${userId}`, undefined, 10004],
      ["POST", `/channels/${UNKNOWN_ID}/messages`, { user_id: userId, content: "hi" }, 10003],
      ["POST", `/channels/${UNKNOWN_ID}/messages`, { user_id: UNKNOWN_ID, content: "hi" }, 10013],
      ["POST", `/invites/${UNKNOWN_ID}/accept`, { user_id: userId }, 10006],
      ["PUT", `/guilds/${guildId}/voice-states/${userId}`, { channel_id: UNKNOWN_ID }, 10003],
      ["PUT", `/guilds/${UNKNOWN_ID}/voice-states/${userId}`, { channel_id: null }, 10004],
      ["PUT", `/users/${UNKNOWN_ID}/presence`, { status: "online" }, 10013],
      ["POST", "/users", { username: "bob", bearer_for_application: UNKNOWN_ID }, 10002],
    ];
    for (const [method, path, body, code] of cases) {
      expect(await twinCall(method, path, body), `${method} ${path}`).toMatchObject({ status: 404, body: { code } });
    }
  });

  it("answers bad bodies with 400 50035", async () => {
    const userId = twin.info.user_id;
    const cases: [string, string, unknown, string][] = [
      ["POST", "/users", { username: "Not Valid!" }, "username"],
      ["POST", "/users", { username: "x" }, "username"],
      ["POST", "/users", { username: "ok_name", bearer_for_application: twin.info.application_id, scopes: ["nonsense"] }, "scopes"],
      ["POST", `/channels/${twin.info.guild_id}/messages`, { content: "who?" }, "user_id"],
      ["POST", `/channels/${twin.info.guild_id}/messages`, { user_id: twin.info.bot_user_id, content: "as a bot" }, "user_id"],
      ["POST", "/invites/abc/accept", {}, "user_id"],
      ["PUT", `/guilds/${twin.info.guild_id}/voice-states/${userId}`, { channel_id: 5 }, "channel_id"],
      ["PUT", `/users/${userId}/presence`, { status: "away" }, "status"],
    ];
    for (const [method, path, body, field] of cases) {
      const answer = await twinCall(method, path, body);
      expect(answer, `${method} ${path} ${JSON.stringify(body)}`).toMatchObject({ status: 400, body: { code: 50035 } });
      expect(answer.body.errors).toHaveProperty(field);
    }
  });

  it("keeps a person's presence and voice through the session sweep, however far time moves", async () => {
    const guildId = twin.info.guild_id;
    const voice = (await botCall("POST", `/guilds/${guildId}/channels`, { name: "Stay", type: ChannelType.GuildVoice })).body;
    await twinCall("PUT", `/users/${twin.info.user_id}/presence`, { status: "idle" });
    await twinCall("PUT", `/guilds/${guildId}/voice-states/${twin.info.user_id}`, { channel_id: voice.id });
    const { db } = twin.runtime;
    // A sweep a day from now: every connection would have had to be seen since.
    await sweepSessions(db, new Date(Date.now() + DAY_MS), RESUMABLE_MS);
    await disconnectEndedSessions(db);
    expect(await db.presence.findMany({ where: { userId: twin.info.user_id }, select: { status: true } })).toEqual([{ status: "idle" }]);
    expect(await db.voiceState.findUnique({ where: { guildId_userId: { guildId, userId: twin.info.user_id } } })).toMatchObject({ channelId: voice.id });
    // Going offline closes the client: the voice connection ends with it.
    await twinCall("PUT", `/users/${twin.info.user_id}/presence`, { status: "offline" });
    const left = await heard<GatewayVoiceStateUpdateDispatchData>("VOICE_STATE_UPDATE", (d) => d.user_id === twin.info.user_id && d.channel_id === null);
    expect(left.guild_id).toBe(guildId);
  });
});
