import { ChannelType, GatewayDispatchEvents as E, MessageFlags, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { fetchHandler } from "~/server/http/fetch-adapter.ts";
import { readAttachmentFile } from "~/server/images/image.service.ts";
import { createRateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { createDispatcher } from "~/server/rest/dispatch.ts";
import { ROUTES } from "~/server/rest/routes.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { makeBot, writeGuildState } from "~/test/factories.ts";
import { followKit } from "~/test/follow-kit.ts";
import { MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { loadConformance } from "~/test/openapi-conformance.ts";
import { restClient } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = followKit(app);

const ALREADY_CROSSPOSTED = { code: 40033, message: "This message has already been crossposted" };

function expectMessage(body: unknown) {
  expect(loadConformance().checkSchema("MessageResponse", body)).toBeNull();
}

/** Posts a message with a text file in `channelId` as the bot holding `token`. */
async function postWithFile(token: string, channelId: string, content: string) {
  const form = new FormData();
  form.set("payload_json", JSON.stringify({ content, embeds: [{ title: "Release", description: "v2", color: 255 }] }));
  form.set("files[0]", new Blob(["release notes"], { type: "text/plain" }), "notes.txt");
  const response = await app.dispatch(
    new Request(`http://guildhall.test/api/v10/channels/${channelId}/messages`, { method: "POST", headers: { authorization: `Bot ${token}` }, body: form }),
  );
  return (await response.json()) as { id: string; attachments: { url: string }[] };
}

/** An announcement channel followed from two other guilds. */
async function followedTwice() {
  const source = await kit.publisher();
  const first = await kit.follower(source.guild.id);
  const second = await kit.follower(source.guild.id);
  const hooks = [];
  for (const target of [first, second]) hooks.push(((await kit.follow(target.api, source.news.id, target.text.id)).body as { webhook_id: string }).webhook_id);
  return { source, targets: [first, second] as const, hooks };
}

describe("POST /channels/{channel.id}/messages/{message.id}/crosspost", () => {
  it("publishes once: CROSSPOSTED on the source (Message Update), a copy through each follower in two guilds; a second time is 40033", async () => {
    const { source, targets, hooks } = await followedTwice();
    const posted = await postWithFile(source.owner.token, source.news.id, "Big news <@&123> @everyone");
    const res = await source.api.post(`/channels/${source.news.id}/messages/${posted.id}/crosspost`);
    expect(res.status).toBe(200);
    expectMessage(res.body);
    expect(res.body).toMatchObject({ id: posted.id, flags: MessageFlags.Crossposted, content: "Big news <@&123> @everyone" });
    expect((await source.api.get(`/channels/${source.news.id}/messages/${posted.id}`)).body.flags).toBe(MessageFlags.Crossposted);
    const { user: _author, ...member } = (await source.api.get(`/guilds/${source.guild.id}/members/${res.body.author.id}`)).body;
    expect(await kit.eventsOf(source.guild.id, E.MessageUpdate)).toEqual([{ ...res.body, guild_id: source.guild.id, member }]);

    for (const [i, target] of targets.entries()) {
      const [copy] = (await target.api.get(`/channels/${target.text.id}/messages`)).body;
      expectMessage(copy);
      expect(copy).toMatchObject({
        type: 0,
        channel_id: target.text.id,
        content: "Big news <@&123> @everyone",
        embeds: [{ type: "rich", title: "Release", description: "v2", color: 255 }],
        flags: MessageFlags.IsCrosspost,
        webhook_id: hooks[i],
        author: { id: hooks[i], username: `${source.name} #news`, avatar: source.icon, bot: true },
        message_reference: { type: 0, message_id: posted.id, channel_id: source.news.id, guild_id: source.guild.id },
        mention_everyone: false,
        mentions: [],
        mention_roles: [],
      });
      expect(copy.application_id).toBeUndefined();
      expect(copy.attachments).toEqual([expect.objectContaining({ filename: "notes.txt", size: 13 })]);
      expect(copy.attachments[0].url).not.toBe(posted.attachments[0]!.url);
      const bytes = await readAttachmentFile(app.db, new URL(copy.attachments[0].url as string).pathname);
      expect(Buffer.from(bytes!.data).toString()).toBe("release notes");
      expect(await kit.eventsOf(target.guild.id, E.MessageCreate)).toEqual([{ ...copy, guild_id: target.guild.id, channel_type: ChannelType.GuildText }]);
    }

    expect((await source.api.post(`/channels/${source.news.id}/messages/${posted.id}/crosspost`)).body).toEqual(ALREADY_CROSSPOSTED);
    expect(await app.db.message.count({ where: { webhookId: { in: hooks } } })).toBe(2);

    // The copies keep their files when the source goes.
    expect((await source.api.delete(`/channels/${source.news.id}/messages/${posted.id}`)).status).toBe(204);
    const [copy] = (await targets[0].api.get(`/channels/${targets[0].text.id}/messages`)).body;
    expect(await readAttachmentFile(app.db, new URL(copy.attachments[0].url as string).pathname)).not.toBeNull();
  });

  it("is refused outside announcement channels (50024) and for unknown messages (10008)", async () => {
    const source = await kit.publisher();
    const posted = await source.api.post(`/channels/${source.text.id}/messages`, { content: "plain" });
    expect((await source.api.post(`/channels/${source.text.id}/messages/${posted.body.id}/crosspost`)).body).toEqual({
      code: 50024,
      message: "Cannot execute action on this channel type",
    });
    expect((await source.api.post(`/channels/${source.news.id}/messages/${posted.body.id}/crosspost`)).body).toMatchObject({ code: 10008 });
    expect((await app.db.message.findUniqueOrThrow({ where: { id: posted.body.id } })).flags).toBe(0);
  });

  it("lets an author publish their own message with SEND_MESSAGES; another's needs MANAGE_MESSAGES", async () => {
    const { source, targets } = await followedTwice();
    await kit.setEveryone(source.guild.id, P.ViewChannel | P.ReadMessageHistory);
    const writerRole = await kit.addRole(source.guild.id, 2, { permissions: P.SendMessages });
    const writer = await kit.addBot(source.guild.id, [writerRole.id]);
    const own = await writer.api.post(`/channels/${source.news.id}/messages`, { content: "mine" });
    const others = await source.api.post(`/channels/${source.news.id}/messages`, { content: "the owner's" });

    expect((await writer.api.post(`/channels/${source.news.id}/messages/${others.body.id}/crosspost`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await app.db.message.findUniqueOrThrow({ where: { id: others.body.id } })).flags).toBe(0);
    const published = await writer.api.post(`/channels/${source.news.id}/messages/${own.body.id}/crosspost`);
    expect(published.body.flags).toBe(MessageFlags.Crossposted);
    expect((await targets[0].api.get(`/channels/${targets[0].text.id}/messages`)).body.map((m: { content: string }) => m.content)).toEqual(["mine"]);

    const moderatorRole = await kit.addRole(source.guild.id, 3, { permissions: P.SendMessages | P.ManageMessages });
    const moderator = await kit.addBot(source.guild.id, [moderatorRole.id]);
    // Answered as a read would be: a bot without MESSAGE_CONTENT does not see another's content.
    expect((await moderator.api.post(`/channels/${source.news.id}/messages/${others.body.id}/crosspost`)).body).toMatchObject({
      flags: MessageFlags.Crossposted,
      content: "",
    });
    expect((await targets[0].api.get(`/channels/${targets[0].text.id}/messages`)).body[0].content).toBe("the owner's");
    // Without SEND_MESSAGES even an own message stays unpublished.
    const later = await writer.api.post(`/channels/${source.news.id}/messages`, { content: "later" });
    await kit.updateMember(source.guild.id, writer.user.id, { roles: { deleteMany: {} } });
    expect((await writer.api.post(`/channels/${source.news.id}/messages/${later.body.id}/crosspost`)).body).toEqual(MISSING_PERMISSIONS);
  });

  it("publishes only what the publisher may read: READ_MESSAGE_HISTORY, REST and dashboard alike", async () => {
    const { source, targets } = await followedTwice();
    await kit.setEveryone(source.guild.id, P.ViewChannel);
    const role = await kit.addRole(source.guild.id, 2, { permissions: P.SendMessages | P.ManageMessages });
    const moderator = await kit.addBot(source.guild.id, [role.id]);
    const posted = await source.api.post(`/channels/${source.news.id}/messages`, { content: "embargoed" });
    expect((await moderator.api.post(`/channels/${source.news.id}/messages/${posted.body.id}/crosspost`)).body).toEqual(MISSING_PERMISSIONS);
    const user = await kit.addUser(source.guild.id, [role.id]);
    const caller = createCaller({ db: app.db, userId: user.user.id });
    await expect(caller.message.crosspost({ channelId: source.news.id, messageId: posted.body.id })).rejects.toMatchObject({ cause: { code: 50013 } });
    expect((await app.db.message.findUniqueOrThrow({ where: { id: posted.body.id } })).flags).toBe(0);
    expect(await app.db.message.count({ where: { channelId: targets[0].text.id } })).toBe(0);
  });

  it("still publishes and reaches the other followers when one follower cannot take the copy", async () => {
    const { source, targets } = await followedTwice();
    // The first follower's channel became a category, where no message can go.
    await writeGuildState(app.db, targets[0].guild.id, (tx) =>
      tx.channel.update({ where: { id: targets[0].text.id }, data: { type: ChannelType.GuildCategory } }),
    );
    const posted = await source.api.post(`/channels/${source.news.id}/messages`, { content: "to all" });
    const res = await source.api.post(`/channels/${source.news.id}/messages/${posted.body.id}/crosspost`);
    expect(res.body.flags).toBe(MessageFlags.Crossposted);
    expect(await app.db.message.count({ where: { channelId: targets[0].text.id } })).toBe(0);
    expect((await targets[1].api.get(`/channels/${targets[1].text.id}/messages`)).body.map((m: { content: string }) => m.content)).toEqual(["to all"]);
  });

  it("publishes from the dashboard with the same rules", async () => {
    const { source, targets } = await followedTwice();
    const posted = await source.api.post(`/channels/${source.news.id}/messages`, { content: "from the dashboard" });
    const caller = createCaller({ db: app.db, userId: source.owner.user.id });
    const before = await caller.message.list({ channelId: source.news.id });
    expect(before.messages.map((m) => m.canPublish)).toEqual([true]);
    expect((await caller.message.crosspost({ channelId: source.news.id, messageId: posted.body.id })).flags).toBe(MessageFlags.Crossposted);
    expect(await app.db.message.count({ where: { channelId: targets[1].text.id } })).toBe(1);
    await expect(caller.message.crosspost({ channelId: source.news.id, messageId: posted.body.id })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await caller.message.list({ channelId: source.news.id })).messages.map((m) => [m.canPublish, m.flags])).toEqual([
      [false, MessageFlags.Crossposted],
    ]);
    // Outside announcement channels nothing is publishable.
    await source.api.post(`/channels/${source.text.id}/messages`, { content: "plain" });
    expect((await caller.message.list({ channelId: source.text.id })).messages.map((m) => m.canPublish)).toEqual([false]);
  });

  it("publishes at most 10 messages an hour per announcement channel, whoever publishes (429)", async () => {
    const source = await kit.publisher();
    const other = await kit.addChannel(source.guild.id, ChannelType.GuildAnnouncement, { name: "other-news" });
    const moderator = await kit.addBotWithRole(source.guild.id, P.ViewChannel | P.SendMessages | P.ManageMessages);
    const ids: string[] = [];
    for (let i = 0; i <= 10; i++) ids.push((await source.api.post(`/channels/${source.news.id}/messages`, { content: `news ${i}` })).body.id as string);
    const spare = (await source.api.post(`/channels/${other.id}/messages`, { content: "elsewhere" })).body.id as string;
    // Unscaled limits, as in production.
    const dispatch = fetchHandler(createDispatcher({ db: app.db, limiter: createRateLimiter(), routes: ROUTES }));
    const publish = (token: string, channelId: string, id: string) =>
      restClient(dispatch, `Bot ${token}`).post(`/channels/${channelId}/messages/${id}/crosspost`);
    for (const [i, id] of ids.slice(0, 10).entries()) {
      const res = await publish(i % 2 ? moderator.token : source.owner.token, source.news.id, id);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("10");
    }
    const limited = await publish(moderator.token, source.news.id, ids[10]!);
    expect(limited.status).toBe(429);
    expect(limited.body.retry_after).toBeGreaterThan(3500);
    expect((await app.db.message.findUniqueOrThrow({ where: { id: ids[10]! } })).flags).toBe(0);
    expect((await publish(source.owner.token, other.id, spare)).status).toBe(200);
  });

  it("counts only publications the caller may make against the channel's hour: others spend their own limit", async () => {
    const source = await kit.publisher();
    const outsider = await makeBot(app.db);
    const writer = await kit.addBotWithRole(source.guild.id, P.ViewChannel | P.SendMessages);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await source.api.post(`/channels/${source.news.id}/messages`, { content: `news ${i}` })).body.id as string);
    const dispatch = fetchHandler(createDispatcher({ db: app.db, limiter: createRateLimiter(), routes: ROUTES }));
    const publish = (token: string, id: string) => restClient(dispatch, `Bot ${token}`).post(`/channels/${source.news.id}/messages/${id}/crosspost`);

    // A bot outside the guild, and a member who may not publish another's message, try a dozen times each.
    const refused = [];
    for (let i = 0; i < 12; i++) refused.push((await publish(outsider.token, ids[0]!)).status, (await publish(writer.token, ids[0]!)).status);
    expect(new Set(refused.slice(0, 20))).toEqual(new Set([403]));
    expect(refused.slice(20)).toEqual([429, 429, 429, 429]);

    for (const id of ids) expect((await publish(source.owner.token, id)).status).toBe(200);
  });
});
