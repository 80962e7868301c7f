import { AuditLogEvent, ChannelFlags, ChannelType, GatewayDispatchEvents as E } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { newId } from "~/server/snowflake/snowflake.ts";
import { MAX_ACTIVE_THREADS } from "~/server/threads/thread.schema.ts";
import { writeGuildState } from "~/test/factories.ts";
import { useTestApp } from "~/test/test-app.ts";
import { webhookKit, type WebhookBody } from "~/test/webhook-kit.ts";

const app = useTestApp();
const kit = webhookKit(app);
/** No Authorization header: the token in the path is the credential. */
const execute = (hook: WebhookBody, body: unknown, query: Record<string, string | boolean> = {}) =>
  app.as().post(`/webhooks/${hook.id}/${hook.token}`, body, { query });

/** A forum (or media channel) with an open and a moderated tag, and a webhook in it. */
async function forumHook(type: ChannelType.GuildForum | ChannelType.GuildMedia = ChannelType.GuildForum, flags = 0) {
  const setup = await kit.setup();
  const tags = { open: newId(), staff: newId() };
  const availableTags = JSON.stringify([
    { id: tags.open, name: "release", moderated: false, emoji_id: null, emoji_name: null },
    { id: tags.staff, name: "pinned by staff", moderated: true, emoji_id: null, emoji_name: null },
  ]);
  const forum = await writeGuildState(app.db, setup.guild.id, (tx) =>
    tx.channel.create({ data: { id: newId(), guildId: setup.guild.id, name: "releases", type, availableTags, flags } }),
  );
  const hook = await kit.webhook(setup.api, forum.id, "Releases");
  return { ...setup, forum, tags, hook };
}

describe("POST /webhooks/{id}/{token} with thread_name", () => {
  it("starts a post whose first message is the webhook's, answers it with wait=true, then posts into it with thread_id", async () => {
    const { guild, api, forum, tags, hook } = await forumHook();
    const res = await execute(
      hook,
      { content: "v2.0 is out", username: "Release bot", thread_name: " v2.0 ", applied_tags: [tags.open, tags.staff] },
      { wait: true },
    );
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    expect(res.body).toMatchObject({
      channel_id: id,
      content: "v2.0 is out",
      webhook_id: hook.id,
      author: { id: hook.id, username: "Release bot", bot: true },
    });

    const post = await api.get(`/channels/${id}`);
    expect(post.body).toMatchObject({
      id,
      type: ChannelType.PublicThread,
      parent_id: forum.id,
      name: "v2.0",
      owner_id: hook.id,
      last_message_id: id,
      message_count: 0,
      member_count: 0,
      applied_tags: [tags.open, tags.staff],
    });
    expect(post.body).not.toHaveProperty("member");
    expect((await api.get(`/channels/${forum.id}`)).body.last_message_id).toBe(id);
    expect(await kit.eventsOf(guild.id, E.ThreadCreate)).toEqual([expect.objectContaining({ id, newly_created: true, owner_id: hook.id })]);
    expect(await kit.eventsOf(guild.id, E.ThreadMembersUpdate)).toEqual([]);
    const [entry] = await kit.auditOf(guild.id, AuditLogEvent.ThreadCreate);
    expect(entry).toMatchObject({ targetId: id, userId: null });

    // applied_tags counts only when a post is made: a reply leaves the post's tags alone.
    const reply = await execute(hook, { content: "changelog attached", applied_tags: [tags.open] }, { wait: true, thread_id: id });
    expect(reply.status).toBe(200);
    expect(reply.body.channel_id).toBe(id);
    expect((await api.get(`/channels/${id}`)).body).toMatchObject({ message_count: 1, last_message_id: reply.body.id, applied_tags: [tags.open, tags.staff] });
    expect((await api.get(`/channels/${id}/messages`)).body.map((m: { id: string }) => m.id)).toEqual([reply.body.id, id]);
  });

  it("posts without waiting (204) in media channels too", async () => {
    const { api, forum: media, hook } = await forumHook(ChannelType.GuildMedia);
    expect((await execute(hook, { content: "new shot", thread_name: "dusk" })).status).toBe(204);
    const [post] = await app.db.channel.findMany({ where: { parentId: media.id } });
    expect(post).toMatchObject({ name: "dusk", type: ChannelType.PublicThread, ownerId: hook.id });
    const messages = await app.db.message.findMany({ where: { channelId: post!.id } });
    expect(messages).toEqual([expect.objectContaining({ id: post!.id, content: "new shot", webhookId: hook.id })]);
    expect((await api.get(`/channels/${post!.id}`)).body.applied_tags).toEqual([]);
  });

  it("checks tags before posting, even without waiting: the channel's own (50035), one where REQUIRE_TAG (40067)", async () => {
    const { forum, tags, hook } = await forumHook(ChannelType.GuildForum, ChannelFlags.RequireTag);
    const stranger = await execute(hook, { content: "x", thread_name: "x", applied_tags: [newId()] });
    expect(stranger.status).toBe(400);
    expect(stranger.body.errors.applied_tags[0]._errors[0].code).toBe("BASE_TYPE_CHOICES");
    const untagged = await execute(hook, { content: "x", thread_name: "x" });
    expect(untagged.body).toEqual({ code: 40067, message: "A tag is required to create a forum post in this channel" });
    expect(await app.db.channel.count({ where: { parentId: forum.id } })).toBe(0);
    expect((await execute(hook, { content: "x", thread_name: "x", applied_tags: [tags.open] }, { wait: true })).status).toBe(200);
  });

  it("keeps the errors: neither (220001), both (220002), thread_name outside forums (220003); applied_tags elsewhere is ignored", async () => {
    const { api, text, tags, hook } = await forumHook();
    expect((await execute(hook, { content: "where?", applied_tags: [tags.open] })).body.code).toBe(220001);
    const post = (await execute(hook, { content: "first", thread_name: "first" }, { wait: true })).body;
    expect((await execute(hook, { content: "both", thread_name: "again" }, { thread_id: post.id })).body.code).toBe(220002);
    const textHook = await kit.webhook(api, text.id, "Text");
    expect((await execute(textHook, { content: "new post", thread_name: "x" })).body.code).toBe(220003);
    const tagged = await execute(textHook, { content: "tags mean nothing here", applied_tags: [newId()] }, { wait: true });
    expect(tagged.status).toBe(200);
    expect(tagged.body.channel_id).toBe(text.id);
  });

  it("counts against the guild's active thread limit (160006)", async () => {
    const { guild, forum, hook, text } = await forumHook();
    const rows = Array.from({ length: MAX_ACTIVE_THREADS }, (_, i) => ({
      id: newId(),
      guildId: guild.id,
      type: ChannelType.PublicThread,
      name: `t${i}`,
      parentId: text.id,
      threadArchived: false,
    }));
    await writeGuildState(app.db, guild.id, (tx) => tx.channel.createMany({ data: rows }));
    const full = await execute(hook, { content: "x", thread_name: "one too many" }, { wait: true });
    expect(full.status).toBe(400);
    expect(full.body).toEqual({ code: 160006, message: "Maximum number of active threads reached" });
    expect(await app.db.channel.count({ where: { parentId: forum.id } })).toBe(0);
    expect(await app.db.message.count({ where: { webhookId: hook.id } })).toBe(0);
  });
});
