import { AuditLogEvent, ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newId } from "~/server/snowflake/snowflake.ts";
import { writeGuildState } from "~/test/factories.ts";
import { MISSING_ACCESS, MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { MAX_ACTIVE_THREADS } from "./thread.schema.ts";

const app = useTestApp();
const kit = threadKit(app);

afterEach(() => {
  vi.useRealTimers();
});

function fieldError(body: any, ...path: (string | number)[]): string | undefined {
  let node = body?.errors;
  for (const key of path) node = node?.[key];
  return node?._errors?.[0]?.code;
}

/** A guild whose @everyone may only view, with a member holding `permissions` through a role. */
async function restrictedSetup(permissions: bigint) {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, P.ViewChannel);
  const member = await kit.addBotWithRole(base.guild.id, permissions);
  return { ...base, member };
}

describe("POST /channels/{channel.id}/threads", () => {
  it("starts a private thread in a text channel by default, with its starter as first member", async () => {
    const { owner, guild, api, text } = await kit.setup();
    const res = await api.post(`/channels/${text.id}/threads`, { name: "  planning  " }, { headers: { "x-audit-log-reason": "kick-off" } });
    expect(res.status).toBe(201);
    kit.expectThreadObject(res.body);
    expect(res.body).toEqual({
      id: expect.any(String),
      type: ChannelType.PrivateThread,
      guild_id: guild.id,
      parent_id: text.id,
      owner_id: owner.user.id,
      name: "planning",
      last_message_id: null,
      rate_limit_per_user: 0,
      flags: 0,
      message_count: 0,
      member_count: 1,
      total_message_sent: 0,
      thread_metadata: {
        archived: false,
        auto_archive_duration: 1440,
        archive_timestamp: expect.any(String),
        locked: false,
        create_timestamp: expect.any(String),
        invitable: true,
      },
      member: { id: res.body.id, user_id: owner.user.id, join_timestamp: expect.any(String), flags: 0 },
    });

    const [created] = await kit.eventsOf(guild.id, GatewayDispatchEvents.ThreadCreate);
    expect(created).toMatchObject({ id: res.body.id, newly_created: true, member_count: 1 });
    expect(created).not.toHaveProperty("member");
    expect(await kit.eventsOf(guild.id, GatewayDispatchEvents.ThreadMembersUpdate)).toEqual([
      { id: res.body.id, guild_id: guild.id, member_count: 1, added_members: [res.body.member] },
    ]);
    const [entry] = await kit.auditOf(guild.id, AuditLogEvent.ThreadCreate);
    expect(entry).toMatchObject({ userId: owner.user.id, targetId: res.body.id, reason: "kick-off" });
    expect(entry!.changes).toEqual(
      expect.arrayContaining([
        { key: "name", new_value: "planning" },
        { key: "type", new_value: ChannelType.PrivateThread },
        { key: "invitable", new_value: true },
      ]),
    );

    const fetched = await api.get(`/channels/${res.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(res.body);
    const channels = await api.get(`/guilds/${guild.id}/channels`);
    expect(channels.body.map((c: { id: string }) => c.id)).not.toContain(res.body.id);
  });

  it("copies the parent's thread defaults; announcement channels start announcement threads", async () => {
    const { guild, api, text } = await kit.setup();
    await api.patch(`/channels/${text.id}`, { default_auto_archive_duration: 4320, default_thread_rate_limit_per_user: 30 });
    const open = await api.post(`/channels/${text.id}/threads`, { name: "open", type: ChannelType.PublicThread, invitable: false });
    expect(open.status).toBe(201);
    expect(open.body).toMatchObject({ type: ChannelType.PublicThread, rate_limit_per_user: 30, thread_metadata: { auto_archive_duration: 4320 } });
    expect(open.body.thread_metadata).not.toHaveProperty("invitable");
    const chosen = await api.post(`/channels/${text.id}/threads`, { name: "quiet", type: 11, auto_archive_duration: 60, rate_limit_per_user: 0 });
    expect(chosen.body).toMatchObject({ rate_limit_per_user: 0, thread_metadata: { auto_archive_duration: 60 } });
    const closed = await api.post(`/channels/${text.id}/threads`, { name: "closed", type: ChannelType.PrivateThread, invitable: false });
    expect(closed.body.thread_metadata.invitable).toBe(false);
    const wrong = await api.post(`/channels/${text.id}/threads`, { name: "news", type: ChannelType.AnnouncementThread });
    expect(wrong.status).toBe(400);
    expect(fieldError(wrong.body, "type")).toBe("BASE_TYPE_CHOICES");

    const news = await kit.addChannel(guild.id, ChannelType.GuildAnnouncement);
    const announced = await api.post(`/channels/${news.id}/threads`, { name: "release", type: ChannelType.PrivateThread });
    expect(announced.status).toBe(201);
    kit.expectThreadObject(announced.body);
    expect(announced.body.type).toBe(ChannelType.AnnouncementThread);
  });

  it("asks for a first message in forum and media channels, and refuses other kinds of channel", async () => {
    const { guild, api, text, voice } = await kit.setup();
    for (const type of [ChannelType.GuildForum, ChannelType.GuildMedia]) {
      const forum = await kit.addChannel(guild.id, type);
      const res = await api.post(`/channels/${forum.id}/threads`, { name: "post" });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(50035);
      expect(fieldError(res.body, "message")).toBe("BASE_TYPE_REQUIRED");
    }
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "inner" })).body;
    const category = (await api.get(`/guilds/${guild.id}/channels`)).body.find((c: { type: number }) => c.type === ChannelType.GuildCategory);
    for (const id of [voice.id, thread.id, category.id]) {
      const res = await api.post(`/channels/${id}/threads`, { name: "nested" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 50024, message: "Cannot execute action on this channel type" });
    }
    const unknown = await api.post(`/channels/${newId()}/threads`, { name: "nowhere" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(10003);
  });

  it("validates the name, archive duration and slowmode", async () => {
    const { api, text } = await kit.setup();
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, "name", "BASE_TYPE_REQUIRED"],
      [{ name: "   " }, "name", "BASE_TYPE_BAD_LENGTH"],
      [{ name: "x".repeat(101) }, "name", "BASE_TYPE_BAD_LENGTH"],
      [{ name: "ok", auto_archive_duration: 120 }, "auto_archive_duration", "BASE_TYPE_CHOICES"],
      [{ name: "ok", rate_limit_per_user: 21601 }, "rate_limit_per_user", "NUMBER_TYPE_MAX"],
      [{ name: "ok", type: 0 }, "type", "BASE_TYPE_CHOICES"],
    ];
    for (const [body, field, code] of cases) {
      const res = await api.post(`/channels/${text.id}/threads`, body);
      expect(res.status).toBe(400);
      expect(fieldError(res.body, field)).toBe(code);
    }
    expect(await app.db.channel.count({ where: { parentId: text.id } })).toBe(0);
  });

  it("needs CREATE_PUBLIC_THREADS or CREATE_PRIVATE_THREADS in the parent, overwrites included", async () => {
    const { guild, text, member } = await restrictedSetup(P.CreatePublicThreads);
    expect((await member.api.post(`/channels/${text.id}/threads`, { name: "open", type: 11 })).status).toBe(201);
    expect((await member.api.post(`/channels/${text.id}/threads`, { name: "closed", type: 12 })).body).toEqual(MISSING_PERMISSIONS);
    expect((await member.api.post(`/channels/${text.id}/threads`, { name: "default" })).body).toEqual(MISSING_PERMISSIONS);

    await kit.addOverwrite(text.id, guild.id, { id: member.user.id, type: 1, allow: P.CreatePrivateThreads, deny: P.CreatePublicThreads });
    expect((await member.api.post(`/channels/${text.id}/threads`, { name: "open", type: 11 })).body).toEqual(MISSING_PERMISSIONS);
    expect((await member.api.post(`/channels/${text.id}/threads`, { name: "closed", type: 12 })).status).toBe(201);

    const hidden = await kit.addChannel(guild.id, ChannelType.GuildText);
    await kit.addOverwrite(hidden.id, guild.id, { id: guild.id, type: 0, deny: P.ViewChannel });
    expect((await member.api.post(`/channels/${hidden.id}/threads`, { name: "peek", type: 11 })).body).toEqual(MISSING_ACCESS);
    const outsider = await kit.setup();
    expect((await outsider.api.post(`/channels/${text.id}/threads`, { name: "intrude" })).body).toEqual(MISSING_ACCESS);
  });

  it("stops at the active thread limit; archived threads do not count", async () => {
    const { owner, guild, api, text } = await kit.setup();
    const rows = Array.from({ length: MAX_ACTIVE_THREADS }, (_, i) => ({
      id: newId(),
      guildId: guild.id,
      type: ChannelType.PublicThread,
      name: `t${i}`,
      parentId: text.id,
      ownerId: owner.user.id,
      threadArchived: false,
    }));
    await writeGuildState(app.db, guild.id, (tx) => tx.channel.createMany({ data: rows }));
    const full = await api.post(`/channels/${text.id}/threads`, { name: "one too many" });
    expect(full.status).toBe(400);
    expect(full.body).toEqual({ code: 160006, message: "Maximum number of active threads reached" });
    await writeGuildState(app.db, guild.id, (tx) => tx.channel.update({ where: { id: rows[0]!.id }, data: { threadArchived: true } }));
    expect((await api.post(`/channels/${text.id}/threads`, { name: "room again" })).status).toBe(201);
  });
});

describe("PATCH /channels/{channel.id} on a thread", () => {
  it("lets the starter rename and archive; archiving stamps the time; an archived thread changes only when unarchived", async () => {
    const { guild, text, member } = await restrictedSetup(P.CreatePublicThreads | P.SendMessagesInThreads);
    const thread = (await member.api.post(`/channels/${text.id}/threads`, { name: "draft", type: 11 })).body;

    const renamed = await member.api.patch(`/channels/${thread.id}`, { name: "final", auto_archive_duration: 60 });
    expect(renamed.status).toBe(200);
    kit.expectThreadObject(renamed.body);
    expect(renamed.body).toMatchObject({ name: "final", thread_metadata: { auto_archive_duration: 60 } });
    expect(renamed.body).not.toHaveProperty("permission_overwrites");

    const archivedAt = new Date("2026-12-01T10:00:00.000Z");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(archivedAt);
    const archived = await member.api.patch(`/channels/${thread.id}`, { archived: true }, { headers: { "x-audit-log-reason": "done" } });
    vi.useRealTimers();
    expect(archived.body.thread_metadata).toMatchObject({ archived: true, archive_timestamp: archivedAt.toISOString() });

    const refused = await member.api.patch(`/channels/${thread.id}`, { name: "again" });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(50083);
    const back = await member.api.patch(`/channels/${thread.id}`, { archived: false, name: "again" });
    expect(back.body).toMatchObject({ name: "again", thread_metadata: { archived: false } });
    expect(back.body.thread_metadata.archive_timestamp).not.toBe(archivedAt.toISOString());

    const updates = await kit.eventsOf(guild.id, GatewayDispatchEvents.ThreadUpdate);
    expect(updates.map((u) => [u.name, u.thread_metadata.archived])).toEqual([
      ["final", false],
      ["final", true],
      ["again", false],
    ]);
    const entries = await kit.auditOf(guild.id, AuditLogEvent.ThreadUpdate);
    expect(entries.find((entry) => entry.reason === "done")!.changes).toEqual([{ key: "archived", old_value: false, new_value: true }]);
    expect(entries.find((entry) => entry.changes?.[0]?.new_value === "final")!.changes).toEqual([
      { key: "name", old_value: "draft", new_value: "final" },
      { key: "auto_archive_duration", old_value: 1440, new_value: 60 },
    ]);
  });

  it("keeps locking, invitable, slowmode and others' threads for MANAGE_THREADS; a locked thread stays archived for the rest", async () => {
    const { guild, text, member } = await restrictedSetup(P.CreatePublicThreads | P.SendMessagesInThreads);
    const moderator = await kit.addBotWithRole(guild.id, P.ManageThreads, 6);
    const bystander = await kit.addBotWithRole(guild.id, P.SendMessagesInThreads, 7);
    const thread = (await member.api.post(`/channels/${text.id}/threads`, { name: "topic", type: 11 })).body;
    const path = `/channels/${thread.id}`;

    expect((await member.api.patch(path, { locked: true })).body).toEqual(MISSING_PERMISSIONS);
    expect((await member.api.patch(path, { rate_limit_per_user: 10 })).body).toEqual(MISSING_PERMISSIONS);
    expect((await bystander.api.patch(path, { name: "mine now" })).body).toEqual(MISSING_PERMISSIONS);
    expect((await bystander.api.patch(path, { archived: true })).body).toEqual(MISSING_PERMISSIONS);
    // Resending what is already there changes nothing and needs nothing.
    expect((await bystander.api.patch(path, { name: "topic", locked: false })).status).toBe(200);

    // Anyone who may send in threads brings back an unlocked archived thread.
    expect((await member.api.patch(path, { archived: true })).status).toBe(200);
    expect((await bystander.api.patch(path, { archived: false })).body.thread_metadata.archived).toBe(false);

    const locked = await moderator.api.patch(path, { locked: true, rate_limit_per_user: 10, archived: true });
    expect(locked.body).toMatchObject({ rate_limit_per_user: 10, thread_metadata: { locked: true, archived: true } });
    for (const caller of [member, bystander]) expect((await caller.api.patch(path, { archived: false })).body).toEqual(MISSING_PERMISSIONS);
    const reopened = await moderator.api.patch(path, { archived: false });
    expect(reopened.body.thread_metadata).toMatchObject({ archived: false, locked: true });
    // Locked, the thread is no longer its starter's to rename.
    expect((await member.api.patch(path, { name: "renamed" })).body).toEqual(MISSING_PERMISSIONS);
    expect((await moderator.api.patch(path, { name: "renamed" })).body.name).toBe("renamed");
  });

  it("changes invitable on private threads only", async () => {
    const { guild, api, text } = await kit.setup();
    const closed = (await api.post(`/channels/${text.id}/threads`, { name: "closed", type: 12 })).body;
    const open = (await api.post(`/channels/${text.id}/threads`, { name: "open", type: 11 })).body;
    expect((await api.patch(`/channels/${closed.id}`, { invitable: false })).body.thread_metadata.invitable).toBe(false);
    const ignored = await api.patch(`/channels/${open.id}`, { invitable: false, topic: "not a thread field" });
    expect(ignored.status).toBe(200);
    expect(ignored.body.thread_metadata).not.toHaveProperty("invitable");
    expect(await kit.eventsOf(guild.id, GatewayDispatchEvents.ThreadUpdate)).toHaveLength(1);
    const bad = await api.patch(`/channels/${open.id}`, { archived: "yes", auto_archive_duration: 30 });
    expect(fieldError(bad.body, "archived")).toBe("BOOLEAN_TYPE_CONVERT");
    expect(fieldError(bad.body, "auto_archive_duration")).toBe("BASE_TYPE_CHOICES");
  });

  it("leaves other channels' PATCH as it was", async () => {
    const { guild, api, text } = await kit.setup();
    const res = await api.patch(`/channels/${text.id}`, { name: "renamed", archived: true, topic: "still a channel" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "renamed", topic: "still a channel", position: expect.any(Number), permission_overwrites: [] });
    expect(res.body).not.toHaveProperty("thread_metadata");
    expect(fieldError((await api.patch(`/channels/${text.id}`, { name: "" })).body, "name")).toBe("BASE_TYPE_BAD_LENGTH");
    expect((await api.patch(`/channels/${text.id}`, [1])).status).toBe(400);
    expect(await kit.eventsOf(guild.id, GatewayDispatchEvents.ChannelUpdate)).toHaveLength(1);
  });

  it("tags forum posts from the parent's tags; moderated tags and pinning need MANAGE_THREADS", async () => {
    const { guild, api, text, member } = await restrictedSetup(P.SendMessagesInThreads);
    const moderator = await kit.addBotWithRole(guild.id, P.ManageThreads, 6);
    const [open, staff] = [newId(), newId()];
    const availableTags = JSON.stringify([
      { id: open, name: "question", moderated: false, emoji_id: null, emoji_name: null },
      { id: staff, name: "answered", moderated: true, emoji_id: null, emoji_name: null },
    ]);
    const forum = await kit.addChannel(guild.id, ChannelType.GuildForum, { availableTags });
    const post = await kit.addChannel(guild.id, ChannelType.PublicThread, { parentId: forum.id, ownerId: member.user.id, name: "help", threadArchived: false });
    const path = `/channels/${post.id}`;

    const fetched = await member.api.get(path);
    kit.expectThreadObject(fetched.body);
    expect(fetched.body.applied_tags).toEqual([]);
    expect((await member.api.patch(path, { applied_tags: [open] })).body.applied_tags).toEqual([open]);
    expect((await member.api.patch(path, { applied_tags: [open, staff] })).body).toEqual(MISSING_PERMISSIONS);
    expect(fieldError((await member.api.patch(path, { applied_tags: [newId()] })).body, "applied_tags", 0)).toBe("BASE_TYPE_CHOICES");
    const tooMany = await member.api.patch(path, { applied_tags: [open, open, open, open, open, open] });
    expect(fieldError(tooMany.body, "applied_tags")).toBe("BASE_TYPE_MAX_LENGTH");
    expect((await moderator.api.patch(path, { applied_tags: [staff, open] })).body.applied_tags).toEqual([staff, open]);
    // Removing the moderated tag is the moderators' too.
    expect((await member.api.patch(path, { applied_tags: [open] })).body).toEqual(MISSING_PERMISSIONS);

    expect((await member.api.patch(path, { flags: 2 })).body).toEqual(MISSING_PERMISSIONS);
    expect((await moderator.api.patch(path, { flags: 2 | 16 })).body.flags).toBe(2);

    const plain = (await api.post(`/channels/${text.id}/threads`, { name: "chat", type: 11 })).body;
    expect(plain).toMatchObject({ name: "chat" });
    expect(plain).not.toHaveProperty("applied_tags");
    const ignored = await moderator.api.patch(`/channels/${plain.id}`, { applied_tags: [open], flags: 2 });
    expect(ignored.body).toMatchObject({ flags: 0 });
    expect(ignored.body).not.toHaveProperty("applied_tags");
  });
});

describe("DELETE /channels/{channel.id} on a thread", () => {
  it("needs MANAGE_THREADS, answers the thread and fires Thread Delete", async () => {
    const { guild, text, member } = await restrictedSetup(P.CreatePublicThreads);
    const moderator = await kit.addBotWithRole(guild.id, P.ManageThreads, 6);
    const thread = (await member.api.post(`/channels/${text.id}/threads`, { name: "gone soon", type: 11 })).body;
    expect((await member.api.delete(`/channels/${thread.id}`)).body).toEqual(MISSING_PERMISSIONS);

    const res = await moderator.api.delete(`/channels/${thread.id}`, { headers: { "x-audit-log-reason": "spam" } });
    expect(res.status).toBe(200);
    kit.expectThreadObject(res.body);
    expect(res.body).toMatchObject({ id: thread.id, name: "gone soon" });
    expect((await member.api.get(`/channels/${thread.id}`)).status).toBe(404);
    expect(await app.db.threadMember.count({ where: { threadId: thread.id } })).toBe(0);
    expect(await kit.eventsOf(guild.id, GatewayDispatchEvents.ThreadDelete)).toEqual([
      { id: thread.id, guild_id: guild.id, parent_id: text.id, type: ChannelType.PublicThread },
    ]);
    const [entry] = await kit.auditOf(guild.id, AuditLogEvent.ThreadDelete);
    expect(entry).toMatchObject({ userId: moderator.user.id, targetId: thread.id, reason: "spam" });
    expect(entry!.changes).toContainEqual({ key: "name", old_value: "gone soon" });
  });

  it("goes with its channel when the channel is deleted", async () => {
    const { api, text } = await kit.setup();
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "attached" })).body;
    expect((await api.delete(`/channels/${text.id}`)).status).toBe(200);
    expect((await api.get(`/channels/${thread.id}`)).body.code).toBe(10003);
    expect(await app.db.channel.count({ where: { parentId: text.id } })).toBe(0);
  });
});
