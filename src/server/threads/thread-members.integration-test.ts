import { ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { newId } from "~/server/snowflake/snowflake.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeUser } from "~/test/factories.ts";
import { MISSING_ACCESS } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);

/** A guild where @everyone may view and send in threads, with a plain member and a moderator. */
async function membersSetup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, P.ViewChannel | P.SendMessagesInThreads);
  const member = await kit.addBotWithRole(base.guild.id, P.CreatePublicThreads);
  const moderator = await kit.addBotWithRole(base.guild.id, P.ManageThreads, 6);
  return { ...base, member, moderator };
}

describe("PUT and DELETE /channels/{channel.id}/thread-members/@me", () => {
  it("joins and leaves a thread once each, with Thread Members Update", async () => {
    const { guild, api, text, member } = await membersSetup();
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "open", type: 11 })).body;
    const path = `/channels/${thread.id}/thread-members/%40me`;

    const joined = await member.api.put(path);
    expect(joined.status).toBe(204);
    expect(joined.body).toBe("");
    expect((await member.api.put(path)).status).toBe(204);
    const seen = await member.api.get(`/channels/${thread.id}`);
    expect(seen.body).toMatchObject({ member_count: 2, member: { id: thread.id, user_id: member.user.id, flags: 0 } });

    expect((await member.api.delete(path)).status).toBe(204);
    expect((await member.api.delete(path)).status).toBe(204);
    const after = await member.api.get(`/channels/${thread.id}`);
    expect(after.body.member_count).toBe(1);
    expect(after.body).not.toHaveProperty("member");

    const updates = await kit.eventsOf(guild.id, GatewayDispatchEvents.ThreadMembersUpdate);
    expect(updates.slice(1)).toEqual([
      { id: thread.id, guild_id: guild.id, member_count: 2, added_members: [seen.body.member] },
      { id: thread.id, guild_id: guild.id, member_count: 1, removed_member_ids: [member.user.id] },
    ]);
  });

  it("refuses archived threads, other kinds of channel, unknown channels and outsiders", async () => {
    const { api, text, member, moderator } = await membersSetup();
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "old", type: 11 })).body;
    await member.api.put(`/channels/${thread.id}/thread-members/@me`);
    await moderator.api.patch(`/channels/${thread.id}`, { archived: true });
    for (const res of [
      await moderator.api.put(`/channels/${thread.id}/thread-members/@me`),
      await member.api.delete(`/channels/${thread.id}/thread-members/@me`),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(50083);
    }
    const wrongType = await member.api.put(`/channels/${text.id}/thread-members/@me`);
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toEqual({ code: 50024, message: "Cannot execute action on this channel type" });
    expect((await member.api.put(`/channels/${newId()}/thread-members/@me`)).body.code).toBe(10003);
    const outsider = await kit.setup();
    expect((await outsider.api.put(`/channels/${thread.id}/thread-members/@me`)).body).toEqual(MISSING_ACCESS);
    expect((await outsider.api.get(`/channels/${thread.id}`)).body).toEqual(MISSING_ACCESS);
  });

  it("keeps private threads to their members and to those who manage threads", async () => {
    const { api, text, member, moderator } = await membersSetup();
    const secret = (await api.post(`/channels/${text.id}/threads`, { name: "secret", type: 12 })).body;
    expect((await member.api.get(`/channels/${secret.id}`)).body).toEqual(MISSING_ACCESS);
    expect((await member.api.put(`/channels/${secret.id}/thread-members/@me`)).body).toEqual(MISSING_ACCESS);
    expect((await member.api.patch(`/channels/${secret.id}`, { archived: true })).body).toEqual(MISSING_ACCESS);

    const peek = await moderator.api.get(`/channels/${secret.id}`);
    expect(peek.status).toBe(200);
    expect(peek.body).not.toHaveProperty("member");
    expect((await moderator.api.put(`/channels/${secret.id}/thread-members/@me`)).status).toBe(204);
    expect((await moderator.api.get(`/channels/${secret.id}`)).body.member_count).toBe(2);
  });

  it("hides threads of a channel the caller cannot view", async () => {
    const { guild, api, text, member } = await membersSetup();
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "behind", type: 11 })).body;
    await kit.addOverwrite(text.id, guild.id, { id: member.role.id, type: 0, deny: P.ViewChannel });
    expect((await member.api.get(`/channels/${thread.id}`)).body).toEqual(MISSING_ACCESS);
    expect((await member.api.put(`/channels/${thread.id}/thread-members/@me`)).body).toEqual(MISSING_ACCESS);
  });
});

describe("GET /guilds/{guild.id}/threads/active", () => {
  it("lists unarchived threads the caller can see, newest first, with members only for threads they joined", async () => {
    const { owner, guild, api, text, member, moderator } = await membersSetup();
    const hiddenChannel = await kit.addChannel(guild.id, ChannelType.GuildText);
    await kit.addOverwrite(hiddenChannel.id, guild.id, { id: member.role.id, type: 0, deny: P.ViewChannel });
    const start = async (caller: typeof api, channelId: string, name: string, type = 11) =>
      (await caller.post(`/channels/${channelId}/threads`, { name, type })).body as { id: string };
    const first = await start(api, text.id, "first");
    const secret = await start(api, text.id, "secret", 12);
    const mine = await start(member.api, text.id, "mine");
    const elsewhere = await start(api, hiddenChannel.id, "elsewhere");
    const old = await start(api, text.id, "old");
    await moderator.api.patch(`/channels/${old.id}`, { archived: true });

    const seen = await member.api.get(`/guilds/${guild.id}/threads/active`);
    expect(seen.status).toBe(200);
    expect(seen.body.has_more).toBe(false);
    expect(seen.body.threads.map((t: { name: string }) => t.name)).toEqual(["mine", "first"]);
    expect(seen.body.members).toEqual([{ id: mine.id, user_id: member.user.id, join_timestamp: expect.any(String), flags: 0 }]);

    const all = await api.get(`/guilds/${guild.id}/threads/active`);
    expect(all.body.threads.map((t: { id: string }) => t.id)).toEqual([elsewhere.id, mine.id, secret.id, first.id]);
    expect(all.body.members.map((m: { id: string; user_id: string }) => [m.id, m.user_id])).toEqual([
      [elsewhere.id, owner.user.id],
      [secret.id, owner.user.id],
      [first.id, owner.user.id],
    ]);
    expect((await moderator.api.get(`/guilds/${guild.id}/threads/active`)).body.threads).toHaveLength(4);

    // A join is an event for the guild, so the next list shows it.
    await member.api.put(`/channels/${first.id}/thread-members/@me`);
    const again = await member.api.get(`/guilds/${guild.id}/threads/active`);
    expect(again.body.members.map((m: { id: string }) => m.id)).toEqual([mine.id, first.id]);
    expect(again.body.threads.find((t: { id: string }) => t.id === first.id).member_count).toBe(2);

    const outsider = await kit.setup();
    expect((await outsider.api.get(`/guilds/${guild.id}/threads/active`)).body).toEqual(MISSING_ACCESS);
  });
});

describe("the dashboard's thread procedures", () => {
  it("lists every visible thread with what the user may do, and creates, archives, locks and deletes", async () => {
    const { guild, api, text } = await kit.setup();
    const news = await kit.addChannel(guild.id, ChannelType.GuildAnnouncement);
    const user = await makeUser(app.db);
    await addMember(app.db, guild.id, user.user.id);
    await kit.setEveryone(guild.id, P.ViewChannel | P.CreatePublicThreads | P.SendMessagesInThreads);
    const caller = createCaller({ db: app.db, userId: user.user.id });

    const started = await caller.thread.create({ channelId: text.id, body: { name: "from the dashboard", type: 11 }, reason: "testing" });
    const byBot = (await api.post(`/channels/${text.id}/threads`, { name: "the bot's", type: 11 })).body;
    await api.post(`/channels/${text.id}/threads`, { name: "the bot's secret", type: 12 });
    const archived = (await api.post(`/channels/${news.id}/threads`, { name: "shipped" })).body;
    await api.patch(`/channels/${archived.id}`, { archived: true, locked: true });

    const list = await caller.thread.list({ guildId: guild.id });
    // Archived threads come after the active ones.
    expect(list.threads.map((t) => [t.name, t.rights])).toEqual([
      ["the bot's", { canManage: false, isStarter: false, canUnarchive: true }],
      ["from the dashboard", { canManage: false, isStarter: true, canUnarchive: true }],
      ["shipped", { canManage: false, isStarter: false, canUnarchive: false }],
    ]);
    expect(list.threads[1]!.member?.user_id).toBe(user.user.id);
    expect(list.parents).toEqual([
      { id: text.id, kind: "threads", canCreatePublic: true, canCreatePrivate: false },
      { id: news.id, kind: "threads", canCreatePublic: true, canCreatePrivate: false },
    ]);

    const done = await caller.thread.modify({ channelId: started.id, body: { archived: true } });
    expect(done.thread_metadata.archived).toBe(true);
    await expect(caller.thread.modify({ channelId: byBot.id, body: { locked: true } })).rejects.toMatchObject({ code: "FORBIDDEN", cause: { code: 50013 } });
    await expect(caller.thread.delete({ channelId: byBot.id })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const ownerCaller = createCaller({ db: app.db, userId: guild.owner_id });
    const ownerList = await ownerCaller.thread.list({ guildId: guild.id });
    expect(ownerList.threads).toHaveLength(4);
    expect(ownerList.parents.every((p) => p.kind === "threads" && p.canCreatePublic)).toBe(true);
    expect((await ownerCaller.thread.modify({ channelId: byBot.id, body: { locked: true } })).thread_metadata.locked).toBe(true);
    expect((await ownerCaller.thread.delete({ channelId: byBot.id, reason: "tidy" })).id).toBe(byBot.id);
    expect((await caller.thread.list({ guildId: guild.id })).threads.map((t) => t.name)).toEqual(["shipped", "from the dashboard"]);
  });
});
