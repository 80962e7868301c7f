import { AuditLogEvent, ChannelType, GatewayDispatchEvents, MessageFlags, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { MISSING_ACCESS, MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { loadConformance } from "~/test/openapi-conformance.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);

const MEMBER = P.ViewChannel | P.SendMessages | P.ReadMessageHistory | P.EmbedLinks | P.AttachFiles;

function expectMessage(body: unknown) {
  expect(loadConformance().checkSchema("MessageResponse", body)).toBeNull();
}

/** A guild whose @everyone may do nothing, so each bot holds exactly its role's permissions. */
async function setup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, 0n);
  return base;
}

describe("POST /channels/{channel.id}/messages", () => {
  it("posts as the bot and answers the message, with Message Create", async () => {
    const { guild, text, api, owner } = await setup();
    const res = await api.post(`/channels/${text.id}/messages`, { content: "hello", embeds: [{ title: "t", color: 5 }], tts: true, nonce: "n-1" });
    expect(res.status).toBe(200);
    expectMessage(res.body);
    expect(res.body).toMatchObject({
      content: "hello",
      channel_id: text.id,
      author: { id: owner.user.id, bot: true },
      embeds: [{ type: "rich", title: "t", color: 5 }],
      tts: true,
      pinned: false,
      edited_timestamp: null,
      application_id: owner.application.id,
      nonce: "n-1",
    });
    expect(res.body.webhook_id).toBeUndefined();
    expect((await api.get(`/channels/${text.id}/messages/${res.body.id}`)).body.nonce).toBeUndefined();
    // The gateway's copy names the guild and carries the author's member, without its user.
    const [event] = await kit.eventsOf(guild.id, GatewayDispatchEvents.MessageCreate);
    const { user: _author, ...member } = (await api.get(`/guilds/${guild.id}/members/${res.body.author.id}`)).body;
    expect(event).toEqual({ ...res.body, guild_id: guild.id, member, channel_type: ChannelType.GuildText });
    expect((await api.get(`/channels/${text.id}`)).body.last_message_id).toBe(res.body.id);
  });

  it("refuses what the validation module refuses: 2001 characters, 11 embeds, 6001 across embeds, empty, IS_COMPONENTS_V2 with content", async () => {
    const { text, api } = await setup();
    const path = `/channels/${text.id}/messages`;
    const long = await api.post(path, { content: "x".repeat(2001) });
    expect([long.status, long.body.code, long.body.errors.content._errors[0].code]).toEqual([400, 50035, "BASE_TYPE_MAX_LENGTH"]);
    expect((await api.post(path, { embeds: Array.from({ length: 11 }, () => ({ title: "t" })) })).body.errors.embeds._errors[0].code).toBe(
      "BASE_TYPE_MAX_LENGTH",
    );
    const big = await api.post(path, { embeds: [{ description: "d".repeat(4096) }, { description: "d".repeat(1905) }] });
    expect(big.body.errors.embeds._errors[0].code).toBe("MAX_EMBED_SIZE_EXCEEDED");
    expect((await api.post(path, {})).body).toEqual({ code: 50006, message: "Cannot send an empty message" });
    expect((await api.post(path, { content: "" })).body.code).toBe(50006);
    const mixed = await api.post(path, { content: "a", flags: MessageFlags.IsComponentsV2, components: [{ type: 10, content: "x" }] });
    expect([mixed.status, mixed.body.code, Object.keys(mixed.body.errors)]).toEqual([400, 50035, ["content"]]);
    const v2 = await api.post(path, { flags: MessageFlags.IsComponentsV2, components: [{ type: 10, content: "x" }] });
    expect(v2.status).toBe(200);
    expect(v2.body.flags).toBe(MessageFlags.IsComponentsV2);
    expect(await app.db.message.count({ where: { channelId: text.id } })).toBe(1);
  });

  it("numbers the components the request left unnumbered and fills the defaults the platform answers with", async () => {
    const { text, api } = await setup();
    const path = `/channels/${text.id}/messages`;
    const legacy = await api.post(path, {
      content: "pick",
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 1, custom_id: "a", label: "A" },
            { type: 2, style: 1, custom_id: "b", label: "B", id: 2 },
          ],
        },
        { type: 1, components: [{ type: 3, custom_id: "s", options: [{ label: "x", value: "x" }] }] },
      ],
    });
    expect(legacy.status).toBe(200);
    expectMessage(legacy.body);
    // Depth first, skipping the id the request chose.
    expect(legacy.body.components.map((row: { id: number; components: { id: number }[] }) => [row.id, row.components.map((c) => c.id)])).toEqual([
      [1, [3, 2]],
      [4, [5]],
    ]);
    expect(legacy.body.components[1].components[0]).toMatchObject({ min_values: 1, max_values: 1 });

    const v2 = await api.post(path, { flags: MessageFlags.IsComponentsV2, components: [{ type: 17, components: [{ type: 10, content: "inside" }] }] });
    expectMessage(v2.body);
    expect(v2.body.components).toEqual([{ type: 17, id: 1, accent_color: null, spoiler: false, components: [{ type: 10, id: 2, content: "inside" }] }]);
    const edited = await api.patch(`${path}/${legacy.body.id}`, { components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: "c", label: "C" }] }] });
    expectMessage(edited.body);
    expect(edited.body.components[0]).toMatchObject({ id: 1, components: [{ id: 2, custom_id: "c" }] });
  });

  it("posts a poll, answered as the platform's poll object", async () => {
    const { text, api } = await setup();
    const res = await api.post(`/channels/${text.id}/messages`, {
      poll: {
        question: { text: "Lunch?" },
        answers: [{ poll_media: { text: "Pizza", emoji: { name: "🍕" } } }, { poll_media: { text: "Soup" } }],
        duration: 2,
      },
    });
    expect(res.status).toBe(200);
    expectMessage(res.body);
    expect(res.body.poll).toMatchObject({
      question: { text: "Lunch?" },
      answers: [
        { answer_id: 1, poll_media: { text: "Pizza", emoji: { id: null, name: "🍕" } } },
        { answer_id: 2, poll_media: { text: "Soup" } },
      ],
      allow_multiselect: false,
      layout_type: 1,
      results: { is_finalized: false, answer_counts: [] },
    });
    expect(Date.parse(res.body.poll.expiry) - Date.parse(res.body.timestamp)).toBe(2 * 60 * 60 * 1000);
    const tooMany = { question: { text: "?" }, answers: Array.from({ length: 11 }, (_, i) => ({ poll_media: { text: `a${i}` } })) };
    expect((await api.post(`/channels/${text.id}/messages`, { poll: tooMany })).body.errors.poll.answers._errors[0].code).toBe("BASE_TYPE_MAX_LENGTH");
    const v2 = await api.post(`/channels/${text.id}/messages`, {
      poll: { question: { text: "?" }, answers: [{ poll_media: { text: "a" } }] },
      flags: MessageFlags.IsComponentsV2,
      components: [{ type: 10, content: "x" }],
    });
    expect(Object.keys(v2.body.errors)).toEqual(["poll"]);
  });

  it("needs VIEW_CHANNEL and SEND_MESSAGES; drops embeds without EMBED_LINKS", async () => {
    const { guild, text } = await setup();
    const path = `/channels/${text.id}/messages`;
    const blind = await kit.addBotWithRole(guild.id, P.SendMessages, 1);
    expect((await blind.api.post(path, { content: "a" })).body).toEqual(MISSING_ACCESS);
    const mute = await kit.addBotWithRole(guild.id, P.ViewChannel, 2);
    expect((await mute.api.post(path, { content: "a" })).body).toEqual(MISSING_PERMISSIONS);
    const plain = await kit.addBotWithRole(guild.id, P.ViewChannel | P.SendMessages, 3);
    const sent = await plain.api.post(path, { content: "a", embeds: [{ title: "t" }] });
    expect(sent.status).toBe(200);
    expect(sent.body.embeds).toEqual([]);
    expect((await plain.api.post(path, { embeds: [{ title: "t" }] })).body.code).toBe(50006);
  });

  it("mentions members and, with MENTION_EVERYONE, everyone; allowed_mentions narrows it", async () => {
    const { guild, text, api } = await setup();
    const member = await kit.addBotWithRole(guild.id, MEMBER, 1);
    const content = `<@${member.user.id}> <@123> @everyone`;
    const all = await api.post(`/channels/${text.id}/messages`, { content });
    expectMessage(all.body);
    expect(all.body.mentions.map((u: { id: string }) => u.id)).toEqual([member.user.id]);
    expect(all.body.mention_everyone).toBe(true);
    const none = await api.post(`/channels/${text.id}/messages`, { content, allowed_mentions: { parse: [] } });
    expect([none.body.mentions, none.body.mention_everyone]).toEqual([[], false]);
    const listed = await api.post(`/channels/${text.id}/messages`, { content, allowed_mentions: { users: [member.user.id] } });
    expect([listed.body.mentions.length, listed.body.mention_everyone]).toEqual([1, false]);
    // A member without MENTION_EVERYONE writes it without pinging anyone.
    const plain = await member.api.post(`/channels/${text.id}/messages`, { content: "@everyone" });
    expect(plain.body.mention_everyone).toBe(false);
  });
});

describe("messages in threads", () => {
  it("need SEND_MESSAGES_IN_THREADS, count in the thread, and bring an archived thread back unless it is locked", async () => {
    const { guild, text, api } = await setup();
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "talk", type: 11 })).body;
    const path = `/channels/${thread.id}/messages`;
    const channelOnly = await kit.addBotWithRole(guild.id, MEMBER, 1);
    expect((await channelOnly.api.post(path, { content: "a" })).body).toEqual(MISSING_PERMISSIONS);
    const member = await kit.addBotWithRole(guild.id, MEMBER | P.SendMessagesInThreads, 2);
    expect((await member.api.post(path, { content: "one" })).status).toBe(200);
    await api.post(path, { content: "two" });
    expect((await api.get(`/channels/${thread.id}`)).body).toMatchObject({ message_count: 2, total_message_sent: 2 });

    await api.patch(`/channels/${thread.id}`, { archived: true });
    const revived = await member.api.post(path, { content: "back" });
    expect(revived.status).toBe(200);
    const [update] = (await kit.eventsOf(guild.id, GatewayDispatchEvents.ThreadUpdate)).slice(-1);
    expect(update).toMatchObject({ id: thread.id, thread_metadata: { archived: false } });
    expect((await api.get(`/channels/${thread.id}`)).body.thread_metadata.archived).toBe(false);

    await api.patch(`/channels/${thread.id}`, { archived: true, locked: true });
    expect((await member.api.post(path, { content: "locked out" })).body.code).toBe(50083);
    expect((await api.post(path, { content: "moderator" })).status).toBe(200);
    // The owner's bot has no MESSAGE_CONTENT intent: the member's messages read empty to it.
    expect((await api.get(`/channels/${thread.id}/messages`)).body.map((m: { content: string }) => m.content)).toEqual(["moderator", "", "two", ""]);
  });
});

describe("GET /channels/{channel.id}/messages", () => {
  it("pages newest first with limit, before, after and around", async () => {
    const { text, api } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await api.post(`/channels/${text.id}/messages`, { content: `m${i}` })).body.id);
    const page = async (query: Record<string, string | number>) =>
      (await api.get(`/channels/${text.id}/messages`, { query })).body.map((m: { content: string }) => m.content);
    expect(await page({})).toEqual(["m6", "m5", "m4", "m3", "m2", "m1", "m0"]);
    for (const message of (await api.get(`/channels/${text.id}/messages`, { query: { limit: 2 } })).body) expectMessage(message);
    expect(await page({ limit: 3 })).toEqual(["m6", "m5", "m4"]);
    expect(await page({ limit: 2, before: ids[4]! })).toEqual(["m3", "m2"]);
    expect(await page({ limit: 2, after: ids[1]! })).toEqual(["m3", "m2"]);
    expect(await page({ limit: 3, around: ids[3]! })).toEqual(["m4", "m3", "m2"]);
    expect((await api.get(`/channels/${text.id}/messages`, { query: { limit: 101 } })).body.code).toBe(50035);
    expect((await api.get(`/channels/${text.id}/messages`, { query: { limit: 0 } })).body.code).toBe(50035);
    const one = await api.get(`/channels/${text.id}/messages/${ids[2]!}`);
    expectMessage(one.body);
    expect(one.body.content).toBe("m2");
    expect((await api.get(`/channels/${text.id}/messages/123`)).body).toEqual({ code: 10008, message: "Unknown Message" });
  });

  it("needs READ_MESSAGE_HISTORY to read past messages", async () => {
    const { guild, text, api } = await setup();
    const sent = await api.post(`/channels/${text.id}/messages`, { content: "old" });
    const reader = await kit.addBotWithRole(guild.id, P.ViewChannel, 1);
    expect((await reader.api.get(`/channels/${text.id}/messages`)).body).toEqual([]);
    expect((await reader.api.get(`/channels/${text.id}/messages/${sent.body.id}`)).body).toEqual(MISSING_PERMISSIONS);
  });

  it("shows a bot without MESSAGE_CONTENT only its own messages and those mentioning it in full", async () => {
    const { guild, text, api } = await setup();
    const reader = await kit.addBotWithRole(guild.id, MEMBER, 1);
    await api.post(`/channels/${text.id}/messages`, { content: "secret", embeds: [{ title: "t" }] });
    await api.post(`/channels/${text.id}/messages`, { content: `hey <@${reader.user.id}>` });
    await reader.api.post(`/channels/${text.id}/messages`, { content: "mine" });
    const seen = async () =>
      (await reader.api.get(`/channels/${text.id}/messages`)).body.map((m: { content: string; embeds: unknown[] }) => [m.content, m.embeds.length]);
    expect(await seen()).toEqual([
      ["mine", 0],
      [`hey <@${reader.user.id}>`, 0],
      ["", 0],
    ]);
    await setApprovedIntents({ db: app.db, actor: null }, reader.application.id, ["MESSAGE_CONTENT"], true);
    expect((await seen())[2]).toEqual(["secret", 1]);
  });

  it("shows a bot without MESSAGE_CONTENT what its application's webhooks post in full, and empties others' and a forward's snapshot", async () => {
    const { guild, text, api } = await setup();
    const reader = await kit.addBotWithRole(guild.id, MEMBER | P.ManageWebhooks, 1);
    const own = (await reader.api.post(`/channels/${text.id}/webhooks`, { name: "own hook" })).body;
    const other = (await api.post(`/channels/${text.id}/webhooks`, { name: "other hook" })).body;
    const post = async (hook: { id: string; token: string }, content: string) =>
      (await app.as().post(`/webhooks/${hook.id}/${hook.token}`, { content, embeds: [{ title: "t" }] }, { query: { wait: true } })).body as {
        id: string;
        application_id?: string;
      };
    const mine = await post(own, "from my hook");
    const theirs = await post(other, "from their hook");
    expect(mine.application_id).toBe(reader.application.id);
    const source = (await api.post(`/channels/${text.id}/messages`, { content: "forwarded secret" })).body;
    const forward = (await api.post(`/channels/${text.id}/messages`, { message_reference: { type: 1, message_id: source.id, channel_id: text.id } })).body;

    type Read = { id: string; content: string; embeds: unknown[]; message_snapshots?: { message: { content: string } }[] };
    const listed = new Map(((await reader.api.get(`/channels/${text.id}/messages`)).body as Read[]).map((message) => [message.id, message]));
    expect([listed.get(mine.id)!.content, listed.get(mine.id)!.embeds.length]).toEqual(["from my hook", 1]);
    expect((await reader.api.get(`/channels/${text.id}/messages/${mine.id}`)).body.content).toBe("from my hook");
    expect([listed.get(theirs.id)!.content, listed.get(theirs.id)!.embeds.length]).toEqual(["", 0]);
    expect(listed.get(forward.id)!.message_snapshots![0]!.message.content).toBe("");
  });
});

describe("PATCH and DELETE /channels/{channel.id}/messages/{message.id}", () => {
  it("edits the author's own messages only, with edited_timestamp and Message Update", async () => {
    const { guild, text, api } = await setup();
    const other = await kit.addBotWithRole(guild.id, MEMBER | P.ManageMessages, 1);
    const sent = await api.post(`/channels/${text.id}/messages`, { content: "first", embeds: [{ title: "keep" }] });
    const path = `/channels/${text.id}/messages/${sent.body.id}`;
    const edited = await api.patch(path, { content: `now <@${other.user.id}>`, flags: MessageFlags.SuppressEmbeds });
    expect(edited.status).toBe(200);
    expectMessage(edited.body);
    expect(edited.body).toMatchObject({ content: `now <@${other.user.id}>`, embeds: [{ title: "keep" }], flags: MessageFlags.SuppressEmbeds });
    expect(edited.body.mentions.map((u: { id: string }) => u.id)).toEqual([other.user.id]);
    expect(Date.parse(edited.body.edited_timestamp)).not.toBeNaN();
    // Each mentioned member carries their member object too, as the gateway sends it.
    const memberOf = async (userId: string) => {
      const { user: _user, ...member } = (await api.get(`/guilds/${guild.id}/members/${userId}`)).body;
      return member;
    };
    const mentions = [{ ...edited.body.mentions[0], member: await memberOf(other.user.id) }];
    const member = await memberOf(edited.body.author.id);
    expect(await kit.eventsOf(guild.id, GatewayDispatchEvents.MessageUpdate)).toEqual([{ ...edited.body, guild_id: guild.id, member, mentions }]);
    expect((await api.patch(path, { content: "", embeds: [] })).body.code).toBe(50006);
    expect((await other.api.patch(path, { content: "mine now" })).body).toEqual({ code: 50005, message: "Cannot edit a message authored by another user" });
  });

  it("deletes one's own messages, and others' with MANAGE_MESSAGES (audited), with Message Delete", async () => {
    const { guild, text, api, owner } = await setup();
    const member = await kit.addBotWithRole(guild.id, MEMBER, 1);
    const own = (await member.api.post(`/channels/${text.id}/messages`, { content: "mine" })).body;
    const ownerMessage = (await api.post(`/channels/${text.id}/messages`, { content: "owner's" })).body;
    expect((await member.api.delete(`/channels/${text.id}/messages/${ownerMessage.id}`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await member.api.delete(`/channels/${text.id}/messages/${own.id}`)).status).toBe(204);
    expect(await kit.auditOf(guild.id, AuditLogEvent.MessageDelete)).toEqual([]);
    const memberMessage = (await member.api.post(`/channels/${text.id}/messages`, { content: "again" })).body;
    expect((await api.delete(`/channels/${text.id}/messages/${memberMessage.id}`, { headers: { "x-audit-log-reason": "spam" } })).status).toBe(204);
    const [entry] = await kit.auditOf(guild.id, AuditLogEvent.MessageDelete);
    expect(entry).toMatchObject({ userId: owner.user.id, targetId: member.user.id, reason: "spam", options: { channel_id: text.id, count: "1" } });
    expect(await kit.eventsOf(guild.id, GatewayDispatchEvents.MessageDelete)).toEqual([
      { id: own.id, channel_id: text.id, guild_id: guild.id },
      { id: memberMessage.id, channel_id: text.id, guild_id: guild.id },
    ]);
    expect((await api.get(`/channels/${text.id}/messages/${own.id}`)).body.code).toBe(10008);
    expect((await api.delete(`/channels/${text.id}/messages/${own.id}`)).body.code).toBe(10008);
  });
});

describe("replies and forwards", () => {
  it("replies mention the replied-to author; forwards need a readable source (160014)", async () => {
    const { guild, text, api } = await setup();
    const member = await kit.addBotWithRole(guild.id, MEMBER, 1);
    const source = (await member.api.post(`/channels/${text.id}/messages`, { content: "question" })).body;
    const reply = await api.post(`/channels/${text.id}/messages`, { content: "answer", message_reference: { message_id: source.id } });
    expectMessage(reply.body);
    expect(reply.body).toMatchObject({ type: 19, message_reference: { type: 0, message_id: source.id, channel_id: text.id, guild_id: guild.id } });
    expect(reply.body.mentions.map((u: { id: string }) => u.id)).toEqual([member.user.id]);
    const unknown = await api.post(`/channels/${text.id}/messages`, { content: "x", message_reference: { message_id: "1" } });
    expect(unknown.body.errors.message_reference._errors[0].code).toBe("MESSAGE_REFERENCE_UNKNOWN_MESSAGE");

    const ownerPost = (await api.post(`/channels/${text.id}/messages`, { content: "private matter" })).body;
    const forward = { message_reference: { type: 1, message_id: ownerPost.id, channel_id: text.id } };
    expect((await member.api.post(`/channels/${text.id}/messages`, forward)).body).toEqual({
      code: 160014,
      message: "Cannot forward a message without permission to read its content",
    });
    const forwarded = await api.post(`/channels/${text.id}/messages`, forward);
    expect(forwarded.status).toBe(200);
    // The subset's MessageReferenceType lists only DEFAULT (0); the platform documents FORWARD (1).
    expectMessage({ ...forwarded.body, message_reference: { ...forwarded.body.message_reference, type: 0 } });
    expect(forwarded.body).toMatchObject({ content: "", flags: MessageFlags.HasSnapshot, message_reference: { type: 1, message_id: ownerPost.id } });
    expect(forwarded.body.message_snapshots).toEqual([{ message: expect.objectContaining({ content: "private matter", timestamp: ownerPost.timestamp }) }]);
    // The copy stays as it was when forwarded.
    await api.patch(`/channels/${text.id}/messages/${ownerPost.id}`, { content: "edited later" });
    expect((await api.get(`/channels/${text.id}/messages/${forwarded.body.id}`)).body.message_snapshots[0].message.content).toBe("private matter");
    // A forward carries nothing of its own.
    expect((await api.post(`/channels/${text.id}/messages`, { ...forward, content: "look" })).body.code).toBe(50035);
    const withButtons = { ...forward, components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: "b" }] }] };
    expect((await api.post(`/channels/${text.id}/messages`, withButtons)).body.errors.message_reference).toBeDefined();
    // Once the member's application may read content, it may forward.
    await setApprovedIntents({ db: app.db, actor: null }, member.application.id, ["MESSAGE_CONTENT"], true);
    expect((await member.api.post(`/channels/${text.id}/messages`, forward)).status).toBe(200);
  });

  it("reads the referenced message as any read does: without READ_MESSAGE_HISTORY no reply (160002) nor forward (160014)", async () => {
    const { guild, text, api } = await setup();
    const elsewhere = await kit.addChannel(guild.id, ChannelType.GuildText, { name: "elsewhere" });
    const writer = await kit.addBotWithRole(guild.id, (MEMBER | P.SendMessagesInThreads) & ~P.ReadMessageHistory, 1);
    await setApprovedIntents({ db: app.db, actor: null }, writer.application.id, ["MESSAGE_CONTENT"], true);
    await kit.addOverwrite(elsewhere.id, guild.id, { id: writer.role.id, type: 0, allow: P.ReadMessageHistory });
    const secret = (await api.post(`/channels/${text.id}/messages`, { content: "before your time" })).body;
    const post = (channelId: string, body: object) => writer.api.post(`/channels/${channelId}/messages`, body);
    const REPLY_REFUSED = { code: 160002, message: "Cannot reply without permission to read message history" };
    const FORWARD_REFUSED = { code: 160014, message: "Cannot forward a message without permission to read its content" };

    expect((await post(text.id, { content: "re", message_reference: { message_id: secret.id } })).body).toEqual(REPLY_REFUSED);
    const optional = await post(text.id, { content: "re", message_reference: { message_id: secret.id, fail_if_not_exists: false } });
    expect(optional.body).toEqual(REPLY_REFUSED);
    expect((await post(text.id, { message_reference: { type: 1, message_id: secret.id } })).body).toEqual(FORWARD_REFUSED);
    expect((await post(elsewhere.id, { message_reference: { type: 1, message_id: secret.id, channel_id: text.id } })).body).toEqual(FORWARD_REFUSED);
    expect(await app.db.message.count({ where: { authorId: writer.user.id } })).toBe(0);

    // A thread reads as its parent does.
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "talk", type: ChannelType.PublicThread })).body;
    const inThread = (await api.post(`/channels/${thread.id}/messages`, { content: "in the thread" })).body;
    const threadReply = await writer.api.post(`/channels/${thread.id}/messages`, { content: "re", message_reference: { message_id: inThread.id } });
    expect(threadReply.body).toEqual(REPLY_REFUSED);
    expect((await post(elsewhere.id, { message_reference: { type: 1, message_id: inThread.id, channel_id: thread.id } })).body).toEqual(FORWARD_REFUSED);

    // Where the history is readable, both work.
    const there = (await api.post(`/channels/${elsewhere.id}/messages`, { content: "readable" })).body;
    expect((await post(elsewhere.id, { content: "re", message_reference: { message_id: there.id } })).status).toBe(200);
    expect((await post(text.id, { message_reference: { type: 1, message_id: there.id, channel_id: elsewhere.id } })).body.message_snapshots).toEqual([
      { message: expect.objectContaining({ content: "readable" }) },
    ]);
  });
});
