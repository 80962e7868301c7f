import { ChannelType, GatewayDispatchEvents as E, GatewayIntentBits as I, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { storedEventOf, type StoredEvent } from "~/server/events/event-map.ts";
import { joinVoice } from "~/server/members/voice.service.ts";
import { addMember, makeBot, makeGuild } from "~/test/factories.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createEventRouter } from "./event-router.ts";
import type { Dispatch, GatewaySessionView } from "./gateway-types.ts";
import { shardOf } from "./route-decision.ts";

const app = useTestApp();

type Bot = Awaited<ReturnType<typeof makeBot>>;

const EVERYDAY = I.Guilds | I.GuildMembers | I.GuildModeration | I.GuildMessages | I.GuildInvites | I.GuildWebhooks | I.GuildPresences;

let sessions = 0;
function sessionOf(who: Bot, guildIds: string[], options: Partial<GatewaySessionView> = {}): GatewaySessionView {
  return {
    sessionId: `s${sessions++}`,
    applicationId: who.application.id,
    botUserId: who.user.id,
    intents: EVERYDAY,
    shard: [0, 1],
    messageContent: false,
    largeThreshold: 50,
    guildIds: new Set(guildIds),
    ...options,
  };
}

/** The events a change stored for the guild, read back from the outbox as the gateway hears them. */
async function eventsOf(guildId: string, change: () => Promise<unknown>): Promise<StoredEvent[]> {
  const last = (await app.db.event.aggregate({ _max: { seq: true } }))._max.seq ?? 0;
  await change();
  const rows = await app.db.event.findMany({ where: { seq: { gt: last }, guildId }, orderBy: { seq: "asc" } });
  return rows.map(storedEventOf);
}

function only(events: StoredEvent[], type: string): StoredEvent {
  const found = events.filter((event) => event.type === type);
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** What each session received: event type and payload, by session id. */
function bySession(dispatches: Dispatch[]): Map<string, { t: string; d: any }[]> {
  const received = new Map<string, { t: string; d: any }[]>();
  for (const { sessions: to, t, d } of dispatches)
    for (const session of to) received.set(session.sessionId, [...(received.get(session.sessionId) ?? []), { t, d }]);
  return received;
}

async function setUp() {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  const member = await makeBot(app.db);
  await addMember(app.db, guild.id, member.user.id);
  const outsider = await makeBot(app.db);
  const api = app.as(bot(owner.token));
  const created = await api.post(`/guilds/${guild.id}/channels`, {
    name: "staff",
    type: ChannelType.GuildText,
    permission_overwrites: [{ id: guild.id, type: 0, deny: String(P.ViewChannel) }],
  });
  expect(created.status).toBe(200);
  const channels = (await api.get(`/guilds/${guild.id}/channels`)).body as { id: string; name: string }[];
  const general = channels.find((channel) => channel.name === "general")!;
  return { owner, guild, member, outsider, api, general, staff: created.body as { id: string } };
}

describe("event router", () => {
  const router = () => createEventRouter({ db: app.db });

  it("sends a channel's events to the guild's sessions that ask for them and can view it", async () => {
    const { owner, guild, member, outsider, api } = await setUp();
    const everyday = sessionOf(member, [guild.id]);
    const noGuilds = sessionOf(member, [guild.id], { intents: I.GuildMessages });
    const elsewhere = sessionOf(outsider, []);
    const ownerSession = sessionOf(owner, [guild.id]);
    const all = [everyday, noGuilds, elsewhere, ownerSession];

    const open = only(await eventsOf(guild.id, () => api.post(`/guilds/${guild.id}/channels`, { name: "open" })), E.ChannelCreate);
    const openTo = bySession(await router().route(open, all));
    expect([...openTo.keys()].sort()).toEqual([everyday.sessionId, ownerSession.sessionId].sort());
    expect(openTo.get(everyday.sessionId)).toEqual([{ t: E.ChannelCreate, d: open.data }]);

    const hidden = only(
      await eventsOf(guild.id, () =>
        api.post(`/guilds/${guild.id}/channels`, { name: "hidden", permission_overwrites: [{ id: guild.id, type: 0, deny: String(P.ViewChannel) }] }),
      ),
      E.ChannelCreate,
    );
    expect([...bySession(await router().route(hidden, all)).keys()]).toEqual([ownerSession.sessionId]);

    // Invites show to those who manage the channel, as on the platform.
    const openId = (open.data as { id: string }).id;
    const invite = only(await eventsOf(guild.id, () => api.post(`/channels/${openId}/invites`, {})), E.InviteCreate);
    expect([...bySession(await router().route(invite, all)).keys()]).toEqual([ownerSession.sessionId]);
  });

  it("empties other users' message content without MESSAGE_CONTENT, keeps it when mentioned, and hides private channels' messages", async () => {
    const { owner, guild, member, api, general, staff } = await setUp();
    const blind = sessionOf(member, [guild.id]);
    const blindToo = sessionOf(member, [guild.id]);
    const reader = sessionOf(member, [guild.id], { intents: EVERYDAY | I.MessageContent, messageContent: true });
    const notGranted = sessionOf(member, [guild.id], { intents: EVERYDAY | I.MessageContent, messageContent: false });
    const ownerSession = sessionOf(owner, [guild.id]);
    const all = [blind, blindToo, reader, notGranted, ownerSession];

    const posted = only(await eventsOf(guild.id, () => api.post(`/channels/${general.id}/messages`, { content: "secret plans" })), E.MessageCreate);
    const dispatches = await router().route(posted, all);
    const to = bySession(dispatches);
    expect(to.get(reader.sessionId)![0]!.d.content).toBe("secret plans");
    expect(to.get(ownerSession.sessionId)![0]!.d.content).toBe("secret plans");
    expect(to.get(blind.sessionId)![0]!.d).toMatchObject({ content: "", embeds: [], attachments: [], components: [], id: (posted.data as { id: string }).id });
    expect(to.get(notGranted.sessionId)![0]!.d.content).toBe("");
    // One payload object per variant: the full one and the emptied one.
    expect(dispatches).toHaveLength(2);
    expect(dispatches.find((d) => d.sessions.includes(blind))!.sessions).toEqual([blind, blindToo, notGranted]);

    const mention = only(
      await eventsOf(guild.id, () => api.post(`/channels/${general.id}/messages`, { content: `hey <@${member.user.id}>` })),
      E.MessageCreate,
    );
    expect(bySession(await router().route(mention, [blind])).get(blind.sessionId)![0]!.d.content).toBe(`hey <@${member.user.id}>`);

    const inStaff = only(await eventsOf(guild.id, () => api.post(`/channels/${staff.id}/messages`, { content: "staff only" })), E.MessageCreate);
    expect([...bySession(await router().route(inStaff, all)).keys()]).toEqual([ownerSession.sessionId]);
  });

  it("builds GUILD_CREATE with what the bot can see", async () => {
    const { guild, member, general, staff } = await setUp();
    const payload = (await router().guildCreate(sessionOf(member, [guild.id]), guild.id)) as any;
    expect(payload).toMatchObject({ id: guild.id, name: guild.name, unavailable: false, large: false, member_count: 2, presences: [], soundboard_sounds: [] });
    expect(Date.parse(payload.joined_at)).not.toBeNaN();
    const channelIds = (payload.channels as { id: string; guild_id?: string }[]).map((channel) => channel.id);
    expect(channelIds).toContain(general.id);
    expect(channelIds).not.toContain(staff.id);
    expect(payload.channels.every((channel: object) => !("guild_id" in channel))).toBe(true);
    expect((payload.members as { user: { id: string } }[]).map((m) => m.user.id)).toContain(member.user.id);
    expect((payload.roles as { id: string }[]).map((role) => role.id)).toContain(guild.id);

    const small = (await router().guildCreate(sessionOf(member, [guild.id], { largeThreshold: 1 }), guild.id)) as any;
    expect(small.large).toBe(true);
    expect((small.members as { user: { id: string } }[]).map((m) => m.user.id)).toEqual([member.user.id]);
    expect(await router().guildCreate(sessionOf(await makeBot(app.db), []), guild.id)).toBeNull();
  });

  it("announces a bot's guild with GUILD_CREATE when it joins and GUILD_DELETE when it is kicked", async () => {
    const { guild, api, general } = await setUp();
    const joining = await makeBot(app.db);
    const session = sessionOf(joining, []);
    const otherShard = sessionOf(joining, [], { shard: [(shardOf(guild.id, 2) + 1) % 2, 2] });

    const added = only(await eventsOf(guild.id, () => addMember(app.db, guild.id, joining.user.id)), E.GuildMemberAdd);
    const joined = bySession(await router().route(added, [session, otherShard]));
    expect(joined.get(session.sessionId)).toMatchObject([{ t: E.GuildCreate, d: { id: guild.id, unavailable: false } }]);
    expect(joined.has(otherShard.sessionId)).toBe(false);
    expect(session.guildIds.has(guild.id)).toBe(true);
    expect(otherShard.guildIds.size).toBe(0);

    const kicked = only(await eventsOf(guild.id, () => api.delete(`/guilds/${guild.id}/members/${joining.user.id}`)), E.GuildMemberRemove);
    expect(bySession(await router().route(kicked, [session])).get(session.sessionId)).toEqual([{ t: E.GuildDelete, d: { id: guild.id } }]);
    expect(session.guildIds.has(guild.id)).toBe(false);

    const after = only(await eventsOf(guild.id, () => api.patch(`/channels/${general.id}`, { topic: "later" })), E.ChannelUpdate);
    expect(await router().route(after, [session])).toEqual([]);
  });

  it("lists a bot's guilds on its shard", async () => {
    const { guild, member } = await setUp();
    const second = await makeGuild(app.db, member.actor);
    const all = await router().guildsOf({ botUserId: member.user.id, shard: [0, 1] });
    expect(all.sort()).toEqual([guild.id, second.id].sort());
    const shards = await Promise.all([0, 1, 2].map((shard) => router().guildsOf({ botUserId: member.user.id, shard: [shard, 3] })));
    expect(shards.flat().sort()).toEqual(all);
    expect(shards[shardOf(guild.id, 3)]).toContain(guild.id);
  });

  it("shows a private thread only to its members and thread managers, and thread member changes by intent", async () => {
    const { owner, guild, member, api, general } = await setUp();
    const memberSession = sessionOf(member, [guild.id]);
    const ownerSession = sessionOf(owner, [guild.id]);
    const ownerGuildsOnly = sessionOf(owner, [guild.id], { intents: I.Guilds });
    const memberGuildsOnly = sessionOf(member, [guild.id], { intents: I.Guilds });
    const all = [memberSession, ownerSession, ownerGuildsOnly, memberGuildsOnly];

    const opened = await eventsOf(guild.id, () => api.post(`/channels/${general.id}/threads`, { name: "private", type: ChannelType.PrivateThread }));
    const privateThread = only(opened, E.ThreadCreate);
    const privateId = (privateThread.data as { id: string }).id;
    expect([...bySession(await router().route(privateThread, all)).keys()].sort()).toEqual([ownerSession.sessionId, ownerGuildsOnly.sessionId].sort());
    const inPrivate = only(await eventsOf(guild.id, () => api.post(`/channels/${privateId}/messages`, { content: "psst" })), E.MessageCreate);
    expect([...bySession(await router().route(inPrivate, all)).keys()]).toEqual([ownerSession.sessionId]);

    const memberApi = app.as(bot(member.token));
    const publicThread = only(
      await eventsOf(guild.id, () => memberApi.post(`/channels/${general.id}/threads`, { name: "public", type: ChannelType.PublicThread })),
      E.ThreadCreate,
    );
    const publicId = (publicThread.data as { id: string }).id;
    expect(bySession(await router().route(publicThread, all)).size).toBe(4);
    const joined = only(await eventsOf(guild.id, () => api.put(`/channels/${publicId}/thread-members/@me`)), E.ThreadMembersUpdate);
    // GUILDS alone hears only the bot's own thread membership; GUILD_MEMBERS hears everyone's.
    expect([...bySession(await router().route(joined, all)).keys()].sort()).toEqual(
      [ownerSession.sessionId, ownerGuildsOnly.sessionId, memberSession.sessionId].sort(),
    );

    const memberView = (await router().guildCreate(memberSession, guild.id)) as any;
    expect((memberView.threads as { id: string }[]).map((thread) => thread.id)).toEqual([publicId]);
    const ownerView = (await router().guildCreate(ownerSession, guild.id)) as any;
    expect((ownerView.threads as { id: string; member?: object }[]).map((thread) => [thread.id, !!thread.member]).sort()).toEqual(
      [
        [privateId, true],
        [publicId, true],
      ].sort(),
    );
  });

  it("puts voice states in GUILD_CREATE, and past large_threshold or without GUILD_PRESENCES only the bot and the members in voice", async () => {
    const { owner, guild, member, api } = await setUp();
    const listener = await makeBot(app.db);
    await addMember(app.db, guild.id, listener.user.id);
    const channels = (await api.get(`/guilds/${guild.id}/channels`)).body as { id: string; type: number }[];
    const voice = channels.find((channel) => channel.type === ChannelType.GuildVoice)!;
    await joinVoice({ db: app.db, actor: null }, { channelId: voice.id, userId: owner.user.id });

    const full = (await router().guildCreate(sessionOf(member, [guild.id]), guild.id)) as any;
    expect(full).toMatchObject({ large: false, member_count: 3, voice_states: [{ channel_id: voice.id, user_id: owner.user.id }] });
    expect(full.members).toHaveLength(3);
    const large = (await router().guildCreate(sessionOf(member, [guild.id], { largeThreshold: 2 }), guild.id)) as any;
    expect(large).toMatchObject({ large: true, member_count: 3 });
    expect((large.members as { user: { id: string } }[]).map((m) => m.user.id).sort()).toEqual([owner.user.id, member.user.id].sort());
    const unseen = (await router().guildCreate(sessionOf(member, [guild.id], { intents: EVERYDAY & ~I.GuildPresences }), guild.id)) as any;
    expect(unseen).toMatchObject({ large: false, member_count: 3 });
    expect((unseen.members as { user: { id: string } }[]).map((m) => m.user.id).sort()).toEqual([owner.user.id, member.user.id].sort());
  });

  it("sends GUILD_DELETE once when the bot is banned", async () => {
    const { guild, member, api } = await setUp();
    const session = sessionOf(member, [guild.id]);
    const events = await eventsOf(guild.id, () => api.put(`/guilds/${guild.id}/bans/${member.user.id}`, {}));
    const received: Dispatch[] = [];
    for (const event of events) received.push(...(await router().route(event, [session])));
    expect(received.map(({ t, d }) => ({ t, d }))).toEqual([{ t: E.GuildDelete, d: { id: guild.id } }]);
    expect(session.guildIds.size).toBe(0);
  });
});
