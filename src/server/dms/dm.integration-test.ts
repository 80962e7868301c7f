import { ChannelType, GatewayDispatchEvents as E, GatewayIntentBits as I } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "~/server/gateway/session-start-limit.ts";
import { openDm } from "~/server/dms/dm.service.ts";
import { sendMessage } from "~/server/messages/message.service.ts";
import { addMember, makeBot, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } },
});

const CANNOT_MESSAGE = { code: 50007, message: "Cannot send messages to this user" };

/** A bot and a person who share a guild (the person's DM setting as given), and the bot's REST client. */
async function pair(options: { allowDms?: boolean } = {}) {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  const person = await makeUser(app.db);
  await addMember(app.db, guild.id, person.user.id);
  if (options.allowDms === false) {
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.member.update({ where: { guildId_userId: { guildId: guild.id, userId: person.user.id } }, data: { allowDms: false } }),
    );
  }
  return { owner, guild, person, api: app.as(bot(owner.token)) };
}

describe("direct messages", () => {
  it("opens one channel a pair, the same one again, readable by its two recipients only", async () => {
    const { owner, person, api } = await pair();
    const opened = await api.post("/users/@me/channels", { recipient_id: person.user.id });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      type: ChannelType.DM,
      last_message_id: null,
      flags: 0,
      recipients: [{ id: person.user.id, username: person.user.username }],
    });
    expect((await api.post("/users/@me/channels", { recipient_id: person.user.id })).body.id).toBe(opened.body.id);
    expect((await api.get(`/channels/${opened.body.id}`)).body).toEqual(opened.body);

    // The person opening it from their side finds the same channel, naming the bot.
    const theirs = await openDm({ db: app.db, actor: dashboardActor(person.user.id) }, { recipient_id: owner.user.id });
    expect(theirs).toMatchObject({ id: opened.body.id, recipients: [{ id: owner.user.id, bot: true }] });
    const stranger = await makeBot(app.db);
    const strangerApi = app.as(bot(stranger.token));
    expect((await strangerApi.get(`/channels/${opened.body.id}`)).body).toMatchObject({ code: 10003 });
    expect((await strangerApi.get(`/channels/${opened.body.id}/messages`)).body).toMatchObject({ code: 10003 });
    expect((await strangerApi.post(`/channels/${opened.body.id}/messages`, { content: "hi" })).body).toMatchObject({ code: 10003 });

    expect((await api.post("/users/@me/channels", { recipient_id: "1" })).body).toMatchObject({ code: 10013 });
    expect((await api.post("/users/@me/channels", { recipient_id: owner.user.id })).body).toMatchObject(CANNOT_MESSAGE);
    expect((await api.post("/users/@me/channels", {})).status).toBe(400);
    // Closing a DM keeps it; it cannot be edited.
    expect((await api.delete(`/channels/${opened.body.id}`)).body.id).toBe(opened.body.id);
    expect((await api.get(`/channels/${opened.body.id}`)).status).toBe(200);
    expect((await api.patch(`/channels/${opened.body.id}`, { name: "x" })).body).toMatchObject({ code: 50003 });
  });

  it("delivers messages both ways, with content, to sessions with DIRECT_MESSAGES and never to one without", async () => {
    const { owner, person, api } = await pair();
    const dm = (await api.post("/users/@me/channels", { recipient_id: person.user.id })).body.id as string;
    // No MESSAGE_CONTENT intent: a DM's content is the recipient's to read all the same.
    const direct = (await identified(server, owner.token, { intents: I.DirectMessages })).client;
    const guildOnly = (await identified(server, owner.token, { intents: I.GuildMessages | I.DirectMessageTyping })).client;

    const sent = await api.post(`/channels/${dm}/messages`, { content: "Welcome! Please read the rules." });
    expect(sent.status).toBe(200);
    expect(sent.body).not.toHaveProperty("guild_id");
    const created = (await direct.dispatch(E.MessageCreate)).d as Record<string, unknown>;
    expect(created).toMatchObject({
      id: sent.body.id,
      channel_id: dm,
      channel_type: ChannelType.DM,
      content: "Welcome! Please read the rules.",
      author: { id: owner.user.id },
    });
    expect(created).not.toHaveProperty("guild_id");
    expect(created).not.toHaveProperty("member");

    // The person answers (from the dashboard, as people do); the bot reads it without MESSAGE_CONTENT.
    const answer = await sendMessage({ db: app.db, actor: dashboardActor(person.user.id) }, { channelId: dm, body: { content: "I agree" }, files: [] });
    expect(((await direct.dispatch(E.MessageCreate)).d as { id: string; content: string }).content).toBe("I agree");
    expect((await api.get(`/channels/${dm}/messages`)).body.map((m: { id: string }) => m.id)).toEqual([answer.id, sent.body.id]);
    expect((await api.get(`/channels/${dm}`)).body.last_message_id).toBe(answer.id);

    // The guild-only session heard neither: the typing that follows is the first thing it hears.
    expect((await api.post(`/channels/${dm}/typing`)).status).toBe(204);
    const frames = await guildOnly.framesThrough((f) => f.t === E.TypingStart, "TYPING_START");
    expect(frames.filter((f) => f.t === E.MessageCreate)).toEqual([]);
    expect(frames.at(-1)!.d).toMatchObject({ channel_id: dm, user_id: owner.user.id });
    expect(frames.at(-1)!.d).not.toHaveProperty("guild_id");
  });

  it("answers 50007 where the platform refuses: no shared guild, DMs off in it, DMs paused, and bot to bot", async () => {
    const { guild, person, api } = await pair({ allowDms: false });
    const dm = (await api.post("/users/@me/channels", { recipient_id: person.user.id })).body.id as string;
    expect((await api.post(`/channels/${dm}/messages`, { content: "hello" })).body).toMatchObject(CANNOT_MESSAGE);
    expect((await api.post(`/channels/${dm}/typing`)).body).toMatchObject(CANNOT_MESSAGE);

    const other = await makeUser(app.db);
    const lonely = (await api.post("/users/@me/channels", { recipient_id: other.user.id })).body.id as string;
    expect((await api.post(`/channels/${lonely}/messages`, { content: "hello" })).body).toMatchObject(CANNOT_MESSAGE);
    await addMember(app.db, guild.id, other.user.id);
    expect((await api.post(`/channels/${lonely}/messages`, { content: "hello" })).status).toBe(200);
    // The guild's incident actions pause DMs between its members.
    await writeGuildState(app.db, guild.id, (tx) => tx.guild.update({ where: { id: guild.id }, data: { dmsDisabledUntil: new Date(Date.now() + 3_600_000) } }));
    expect((await api.post(`/channels/${lonely}/messages`, { content: "hello" })).body).toMatchObject(CANNOT_MESSAGE);

    const otherBot = await makeBot(app.db);
    await addMember(app.db, guild.id, otherBot.user.id);
    const bots = (await api.post("/users/@me/channels", { recipient_id: otherBot.user.id })).body.id as string;
    expect((await api.post(`/channels/${bots}/messages`, { content: "beep" })).body).toMatchObject(CANNOT_MESSAGE);
  });

  it("reacts, pins and edits in a DM with the DM events, but deletes none of the other's messages and bulk deletes nothing", async () => {
    const { owner, person, api } = await pair();
    const dm = (await api.post("/users/@me/channels", { recipient_id: person.user.id })).body.id as string;
    const session = (await identified(server, owner.token, { intents: I.DirectMessages | I.DirectMessageReactions })).client;
    const mine = (await api.post(`/channels/${dm}/messages`, { content: "Vote: 👍 or 👎" })).body.id as string;
    const theirs = (await sendMessage({ db: app.db, actor: dashboardActor(person.user.id) }, { channelId: dm, body: { content: "ok" }, files: [] })).id;

    expect((await api.put(`/channels/${dm}/messages/${theirs}/reactions/${encodeURIComponent("👍")}/@me`)).status).toBe(204);
    const reaction = (await session.dispatch(E.MessageReactionAdd)).d;
    expect(reaction).toMatchObject({ channel_id: dm, message_id: theirs, user_id: owner.user.id, emoji: { name: "👍" } });
    expect(reaction).not.toHaveProperty("guild_id");
    expect(reaction).not.toHaveProperty("member");
    expect((await api.get(`/channels/${dm}/messages/${theirs}`)).body.reactions).toMatchObject([{ count: 1, me: true }]);

    expect((await api.put(`/channels/${dm}/messages/pins/${theirs}`)).status).toBe(204);
    const pins = (await session.dispatch(E.ChannelPinsUpdate)).d;
    expect(pins).toMatchObject({ channel_id: dm });
    expect(pins).not.toHaveProperty("guild_id");
    expect((await api.get(`/channels/${dm}/messages/pins`)).body.items.map((p: { message: { id: string } }) => p.message.id)).toEqual([theirs]);
    expect(Date.parse((await api.get(`/channels/${dm}`)).body.last_pin_timestamp)).not.toBeNaN();

    expect((await api.patch(`/channels/${dm}/messages/${mine}`, { content: "Vote closed" })).body.content).toBe("Vote closed");
    expect((await api.delete(`/channels/${dm}/messages/${theirs}`)).body).toMatchObject(MISSING_PERMISSIONS);
    expect((await api.post(`/channels/${dm}/messages/bulk-delete`, { messages: [mine, theirs] })).body).toMatchObject({ code: 50003 });
    expect((await api.delete(`/channels/${dm}/messages/${mine}`)).status).toBe(204);
    expect((await session.dispatch(E.MessageDelete)).d).toEqual({ id: mine, channel_id: dm });
  });
});
