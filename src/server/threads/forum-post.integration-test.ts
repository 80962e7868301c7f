import { AuditLogEvent, ChannelFlags, ChannelType, GatewayDispatchEvents as E, MessageFlags, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { newId } from "~/server/snowflake/snowflake.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { writeGuildState } from "~/test/factories.ts";
import { MISSING_PERMISSIONS, PNG } from "~/test/member-kit.ts";
import { loadConformance } from "~/test/openapi-conformance.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { MAX_ACTIVE_THREADS } from "./thread.schema.ts";

const app = useTestApp();
const kit = threadKit(app);
const PNG_BYTES = Buffer.from(PNG.split(",")[1]!, "base64");
const TAG_REQUIRED = { code: 40067, message: "A tag is required to create a forum post in this channel" };

function fieldError(body: any, ...path: (string | number)[]): string | undefined {
  let node = body?.errors;
  for (const key of path) node = node?.[key];
  return node?._errors?.[0]?.code;
}

/** A post answer as the platform describes it: a thread channel object, and its first message. */
function expectPostObject(body: any) {
  const conformance = loadConformance();
  const { message, ...thread } = body;
  expect(conformance.checkSchema("ThreadResponse", thread)).toBeNull();
  expect(conformance.checkSchema("MessageResponse", message)).toBeNull();
}

/** A guild with a forum holding an open tag and a moderated one, and its options. */
async function forumSetup(type: ChannelType.GuildForum | ChannelType.GuildMedia = ChannelType.GuildForum, flags = 0) {
  const base = await kit.setup();
  const tags = { open: newId(), staff: newId(), extra: [newId(), newId(), newId(), newId()] };
  const availableTags = JSON.stringify([
    { id: tags.open, name: "question", moderated: false, emoji_id: null, emoji_name: null },
    { id: tags.staff, name: "answered", moderated: true, emoji_id: null, emoji_name: null },
    ...tags.extra.map((id, i) => ({ id, name: `extra ${i}`, moderated: false, emoji_id: null, emoji_name: null })),
  ]);
  const forum = await kit.addChannel(base.guild.id, type, { name: "help", availableTags, flags });
  return { ...base, forum, tags };
}

async function postForm(token: string, path: string, form: FormData) {
  const response = await app.dispatch(
    new Request(`http://guildhall.test/api/v10${path}`, { method: "POST", headers: { authorization: `Bot ${token}` }, body: form }),
  );
  return { status: response.status, body: await response.json() };
}

/** Fills the guild up to the active thread limit with open threads of `parentId`. */
async function fillThreads(guildId: string, parentId: string, ownerId: string) {
  const rows = Array.from({ length: MAX_ACTIVE_THREADS }, (_, i) => ({
    id: newId(),
    guildId,
    type: ChannelType.PublicThread,
    name: `t${i}`,
    parentId,
    ownerId,
    threadArchived: false,
  }));
  await writeGuildState(app.db, guildId, (tx) => tx.channel.createMany({ data: rows }));
  return rows;
}

describe("POST /channels/{channel.id}/threads in a forum or media channel", () => {
  it("starts a public post whose first message shares its id, answered with the message, with the platform's events and audit", async () => {
    const { owner, guild, api, forum, tags } = await forumSetup();
    const res = await api.post(
      `/channels/${forum.id}/threads`,
      {
        name: "  Crash on start  ",
        auto_archive_duration: 4320,
        applied_tags: [tags.open, tags.staff, tags.open],
        message: { content: "It crashes, @everyone" },
      },
      { headers: { "x-audit-log-reason": "bug report" } },
    );
    expect(res.status).toBe(201);
    expectPostObject(res.body);
    const id = res.body.id as string;
    expect(res.body).toMatchObject({
      type: ChannelType.PublicThread,
      guild_id: guild.id,
      parent_id: forum.id,
      owner_id: owner.user.id,
      name: "Crash on start",
      last_message_id: id,
      message_count: 0,
      total_message_sent: 0,
      member_count: 1,
      flags: 0,
      applied_tags: [tags.open, tags.staff],
      thread_metadata: { archived: false, locked: false, auto_archive_duration: 4320 },
      member: { id, user_id: owner.user.id },
      message: { id, channel_id: id, type: 0, content: "It crashes, @everyone", author: { id: owner.user.id, bot: true }, mention_everyone: true },
    });
    expect(res.body.thread_metadata).not.toHaveProperty("invitable");

    // Thread Create comes first, so a client knows the channel the Message Create names.
    const events = await app.db.event.findMany({ where: { guildId: guild.id }, orderBy: { seq: "asc" } });
    const own = events.filter((event) => [E.ThreadCreate, E.ThreadMembersUpdate, E.MessageCreate].includes(event.type as E));
    expect(own.map((event) => event.type)).toEqual([E.ThreadCreate, E.ThreadMembersUpdate, E.MessageCreate]);
    const created = JSON.parse(own[0]!.data);
    expect(created).toMatchObject({ id, newly_created: true, applied_tags: [tags.open, tags.staff], last_message_id: id });
    expect(created).not.toHaveProperty("message");
    expect(JSON.parse(own[2]!.data)).toMatchObject({ id, channel_id: id, guild_id: guild.id });
    const [entry] = await kit.auditOf(guild.id, AuditLogEvent.ThreadCreate);
    expect(entry).toMatchObject({ userId: owner.user.id, targetId: id, reason: "bug report" });
    expect(entry!.changes).toEqual(
      expect.arrayContaining([
        { key: "name", new_value: "Crash on start" },
        { key: "applied_tags", new_value: [tags.open, tags.staff] },
      ]),
    );

    // The forum's last message id names its newest post; the post reads like any thread.
    expect((await api.get(`/channels/${forum.id}`)).body.last_message_id).toBe(id);
    const { message: _message, ...thread } = res.body;
    expect((await api.get(`/channels/${id}`)).body).toEqual(thread);
    const listed = await api.get(`/channels/${id}/messages`);
    expect(listed.body.map((m: { id: string }) => m.id)).toEqual([id]);
    const reply = await api.post(`/channels/${id}/messages`, { content: "Which version?" });
    expect(reply.status).toBe(200);
    expect((await api.get(`/channels/${id}`)).body).toMatchObject({ message_count: 1, total_message_sent: 1, last_message_id: reply.body.id });
    expect((await api.get(`/guilds/${guild.id}/threads/active`)).body.threads.map((t: { id: string }) => t.id)).toEqual([id]);
  });

  it("takes multipart with payload_json and a real file in media channels too, and needs ATTACH_FILES for it", async () => {
    const { owner, guild, forum: media, tags } = await forumSetup(ChannelType.GuildMedia);
    const form = new FormData();
    form.set(
      "payload_json",
      JSON.stringify({
        name: "sunset",
        applied_tags: [tags.open],
        message: { content: "From the pier", attachments: [{ id: 0, description: "the pier at dusk" }] },
      }),
    );
    form.set("files[0]", new Blob([new Uint8Array(PNG_BYTES)], { type: "image/png" }), "pier.png");
    const res = await postForm(owner.token, `/channels/${media.id}/threads`, form);
    expect(res.status).toBe(201);
    expectPostObject(res.body);
    expect(res.body).toMatchObject({ name: "sunset", parent_id: media.id, applied_tags: [tags.open] });
    expect(res.body.message.attachments).toEqual([
      expect.objectContaining({
        filename: "pier.png",
        description: "the pier at dusk",
        content_type: "image/png",
        size: PNG_BYTES.length,
        width: 1,
        height: 1,
      }),
    ]);
    expect(await app.db.attachment.count({ where: { messageId: res.body.id } })).toBe(1);

    await kit.setEveryone(guild.id, 0n);
    const member = await kit.addBotWithRole(guild.id, P.ViewChannel | P.SendMessages, 1);
    expect((await postForm(member.token, `/channels/${media.id}/threads`, form)).body).toEqual(MISSING_PERMISSIONS);
    const badJson = new FormData();
    badJson.set("payload_json", "{nope");
    expect((await postForm(owner.token, `/channels/${media.id}/threads`, badJson)).body.code).toBe(50109);
    expect(await app.db.channel.count({ where: { parentId: media.id } })).toBe(1);
  });

  it("needs SEND_MESSAGES in the forum, not CREATE_PUBLIC_THREADS; embeds need EMBED_LINKS", async () => {
    const { guild, forum } = await forumSetup();
    await kit.setEveryone(guild.id, P.ViewChannel);
    const threadsOnly = await kit.addBotWithRole(guild.id, P.CreatePublicThreads | P.SendMessagesInThreads, 1);
    const body = { name: "hello", message: { content: "hi", embeds: [{ title: "card" }] } };
    expect((await threadsOnly.api.post(`/channels/${forum.id}/threads`, body)).body).toEqual(MISSING_PERMISSIONS);
    const sender = await kit.addBotWithRole(guild.id, P.SendMessages, 2);
    const res = await sender.api.post(`/channels/${forum.id}/threads`, body);
    expect(res.status).toBe(201);
    expect(res.body.message).toMatchObject({ content: "hi", embeds: [] });
    expect(res.body).toMatchObject({ owner_id: sender.user.id, member: { user_id: sender.user.id } });
  });

  it("checks the first message as any message: required, not empty, the post flags only", async () => {
    const { api, forum } = await forumSetup();
    const path = `/channels/${forum.id}/threads`;
    expect(fieldError((await api.post(path, { name: "no message" })).body, "message")).toBe("BASE_TYPE_REQUIRED");
    expect((await api.post(path, { name: "empty", message: {} })).body).toMatchObject({ code: 50006 });
    expect(fieldError((await api.post(path, { name: "long", message: { content: "x".repeat(2001) } })).body, "message", "content")).toBe(
      "BASE_TYPE_MAX_LENGTH",
    );
    const v2 = await api.post(path, { name: "v2", message: { content: "x", flags: MessageFlags.IsComponentsV2 } });
    expect(fieldError(v2.body, "message", "flags")).toBe("MESSAGE_FLAGS_INVALID");
    expect(fieldError((await api.post(path, { name: "", message: { content: "x" } })).body, "name")).toBe("BASE_TYPE_BAD_LENGTH");
    const quiet = await api.post(path, { name: "quiet", message: { content: "x", flags: MessageFlags.SuppressNotifications } });
    expect(quiet.body.message.flags).toBe(MessageFlags.SuppressNotifications);
    expect(await app.db.channel.count({ where: { parentId: forum.id } })).toBe(1);
  });

  it("applies only the forum's tags, at most five, moderated ones with MANAGE_THREADS", async () => {
    const { guild, forum, tags } = await forumSetup();
    await kit.setEveryone(guild.id, P.ViewChannel | P.SendMessages);
    const member = await kit.addBot(guild.id);
    const moderator = await kit.addBotWithRole(guild.id, P.ManageThreads, 2);
    const path = `/channels/${forum.id}/threads`;
    const post = (applied_tags: string[]) => ({ name: "tagged", applied_tags, message: { content: "x" } });

    expect(fieldError((await member.api.post(path, post([tags.open, newId()]))).body, "applied_tags", 1)).toBe("BASE_TYPE_CHOICES");
    expect(fieldError((await member.api.post(path, post([tags.open, ...tags.extra, tags.staff]))).body, "applied_tags")).toBe("BASE_TYPE_MAX_LENGTH");
    expect((await member.api.post(path, post([tags.staff]))).body).toEqual(MISSING_PERMISSIONS);
    expect(await app.db.channel.count({ where: { parentId: forum.id } })).toBe(0);

    expect((await member.api.post(path, post([tags.open, ...tags.extra]))).body.applied_tags).toEqual([tags.open, ...tags.extra]);
    expect((await moderator.api.post(path, post([tags.staff]))).body.applied_tags).toEqual([tags.staff]);
  });

  it("requires a tag where the channel sets REQUIRE_TAG (40067)", async () => {
    const { api, forum, tags } = await forumSetup(ChannelType.GuildForum, ChannelFlags.RequireTag);
    const path = `/channels/${forum.id}/threads`;
    const untagged = await api.post(path, { name: "untagged", message: { content: "x" } });
    expect(untagged.status).toBe(400);
    expect(untagged.body).toEqual(TAG_REQUIRED);
    expect((await api.post(path, { name: "empty tags", applied_tags: [], message: { content: "x" } })).body).toEqual(TAG_REQUIRED);
    expect((await api.post(path, { name: "tagged", applied_tags: [tags.open], message: { content: "x" } })).status).toBe(201);
  });

  it("counts against the guild's active thread limit (160006), writing nothing", async () => {
    const { owner, guild, api, forum, text } = await forumSetup();
    const rows = await fillThreads(guild.id, text.id, owner.user.id);
    const full = await api.post(`/channels/${forum.id}/threads`, { name: "one too many", message: { content: "x" } });
    expect(full.status).toBe(400);
    expect(full.body).toEqual({ code: 160006, message: "Maximum number of active threads reached" });
    expect(await app.db.message.count({ where: { guildId: guild.id } })).toBe(0);
    await writeGuildState(app.db, guild.id, (tx) => tx.channel.update({ where: { id: rows[0]!.id }, data: { threadArchived: true } }));
    expect((await api.post(`/channels/${forum.id}/threads`, { name: "room again", message: { content: "x" } })).status).toBe(201);
  });

  it("ignores message and applied_tags on threads of text channels", async () => {
    const { api, text, tags } = await forumSetup();
    const res = await api.post(`/channels/${text.id}/threads`, { name: "plain", type: 11, applied_tags: [tags.open], message: { content: "x" } });
    expect(res.status).toBe(201);
    kit.expectThreadObject(res.body);
    expect(res.body).not.toHaveProperty("message");
    expect(res.body).not.toHaveProperty("applied_tags");
    expect(await app.db.message.count({ where: { channelId: res.body.id } })).toBe(0);
  });
});

describe("forum posts in the dashboard (tRPC)", () => {
  it("lists posts under their forum with their tags, reads a post's messages, and starts a post through the same service", async () => {
    const { guild, api, forum, tags, text } = await forumSetup();
    await kit.setEveryone(guild.id, 0n);
    const role = await kit.addRole(guild.id, 2, { permissions: P.ViewChannel | P.ReadMessageHistory | P.SendMessages });
    const reader = await kit.addUser(guild.id, [role.id]);
    const caller = createCaller({ db: app.db, userId: reader.user.id });
    const post = (await api.post(`/channels/${forum.id}/threads`, { name: "FAQ", applied_tags: [tags.open], message: { content: "Read me first" } })).body;

    const { threads, parents } = await caller.thread.list({ guildId: guild.id });
    expect(threads).toEqual([expect.objectContaining({ id: post.id, parent_id: forum.id, applied_tags: [tags.open] })]);
    expect(parents).toContainEqual({ id: forum.id, kind: "posts", canPost: true, canUseModeratedTags: false });
    const page = await caller.message.list({ channelId: post.id });
    expect(page.channel).toEqual({
      id: post.id,
      name: "FAQ",
      type: ChannelType.PublicThread,
      guildId: guild.id,
      parentId: forum.id,
      parentType: ChannelType.GuildForum,
    });
    expect(page.messages.map((m) => [m.id, m.content, m.thread])).toEqual([[post.id, "Read me first", null]]);
    expect((await caller.message.list({ channelId: text.id })).channel.parentType).toBeNull();

    const started = await caller.thread.create({ channelId: forum.id, body: { name: "From the dashboard", message: { content: "Hello" } } });
    expect(started).toMatchObject({ parent_id: forum.id, owner_id: reader.user.id, message: { id: started.id, content: "Hello" } });
    await expect(
      caller.thread.create({ channelId: forum.id, body: { name: "Staff only", applied_tags: [tags.staff], message: { content: "x" } } }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });
});
