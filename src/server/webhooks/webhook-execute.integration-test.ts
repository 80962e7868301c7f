import { ButtonStyle, ChannelType, ComponentType, GatewayDispatchEvents as E, MessageFlags, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { newId } from "~/server/snowflake/snowflake.ts";
import { writeGuildState } from "~/test/factories.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createWebhook } from "./webhook.service.ts";
import { INVALID_WEBHOOK_TOKEN, webhookKit, type WebhookBody } from "~/test/webhook-kit.ts";

const app = useTestApp();
const kit = webhookKit(app);
/** No Authorization header: the token in the path is the credential. */
const anonymous = () => app.as();
const PNG_BYTES = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

const execute = (hook: WebhookBody, body: unknown, query: Record<string, string | boolean> = {}) =>
  anonymous().post(`/webhooks/${hook.id}/${hook.token}`, body, { query });

const setupHook = () => kit.setupWithWebhook("Deploys");

describe("POST /webhooks/:webhookId/:token", () => {
  it("answers 204 by default and the message with wait=true, posted under the webhook's name or the overrides", async () => {
    const { guild, api, text, hook } = await setupHook();
    const quick = await execute(hook, { content: "build 1 passed" });
    expect(quick.status).toBe(204);
    const waited = await execute(hook, { content: "build 2 passed", username: "CI", avatar_url: "https://example.com/ci.png" }, { wait: true });
    expect(waited.status).toBe(200);
    expect(waited.body).toMatchObject({
      content: "build 2 passed",
      channel_id: text.id,
      webhook_id: hook.id,
      author: { id: hook.id, username: "CI", bot: true },
    });
    const messages = await app.db.message.findMany({ where: { channelId: text.id }, orderBy: { id: "asc" } });
    expect(messages.map((m) => [m.content, m.authorName])).toEqual([
      ["build 1 passed", "Deploys"],
      ["build 2 passed", "CI"],
    ]);
    expect(await kit.eventsOf(guild.id, E.MessageCreate)).toHaveLength(2);
    expect((await api.get(`/channels/${text.id}`)).body.last_message_id).toBe(waited.body.id);
  });

  it("refuses an empty message (50006), a wrong token (50027), bad overrides, and flags beyond the three allowed", async () => {
    const { hook } = await setupHook();
    expect((await execute(hook, {})).body).toMatchObject({ code: 50006 });
    expect((await anonymous().post(`/webhooks/${hook.id}/${"x".repeat(68)}`, { content: "hi" })).body).toEqual(INVALID_WEBHOOK_TOKEN);
    expect((await execute(hook, { content: "hi", username: "Discord" })).body.errors.username._errors[0].code).toBe("USERNAME_INVALID_CONTAINS");
    expect((await execute(hook, { content: "hi", avatar_url: "ftp://example.com/a.png" })).body.errors).toHaveProperty("avatar_url");
    const urgent = await execute(hook, { content: "hi", flags: MessageFlags.Urgent });
    expect(urgent.status).toBe(400);
    expect(urgent.body.errors.flags._errors[0].code).toBe("MESSAGE_FLAGS_INVALID");
    const quiet = await execute(hook, { content: "hi", flags: MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications }, { wait: true });
    expect(quiet.body.flags).toBe(MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications);
    const v2 = await execute(hook, { content: "hi", flags: MessageFlags.IsComponentsV2, components: [{ type: ComponentType.TextDisplay, content: "x" }] });
    expect(v2.status).toBe(400);
    expect(v2.body.errors).toHaveProperty("content");
    expect(await app.db.message.count({ where: { webhookId: hook.id } })).toBe(1);
  });

  it("takes multipart with payload_json, files[n] and attachments, storing the file", async () => {
    const { hook } = await setupHook();
    const form = new FormData();
    form.set("payload_json", JSON.stringify({ content: "the graph", attachments: [{ id: 0, description: "CPU over a day" }] }));
    form.set("files[0]", new Blob([PNG_BYTES], { type: "image/png" }), "cpu.png");
    const response = await app.dispatch(
      new Request(`http://guildhall.test/api/v10/webhooks/${hook.id}/${hook.token}?wait=true`, { method: "POST", body: form }),
    );
    expect(response.status).toBe(200);
    const message = (await response.json()) as { content: string; attachments: { filename: string; description: string; size: number; url: string }[] };
    expect(message.content).toBe("the graph");
    expect(message.attachments).toEqual([expect.objectContaining({ filename: "cpu.png", description: "CPU over a day", size: PNG_BYTES.length })]);
    const stored = await app.db.attachment.findMany({ where: { message: { webhookId: hook.id } } });
    expect(stored).toHaveLength(1);
  });

  it("drops components of a webhook no application owns unless with_components, and then only non-interactive ones", async () => {
    const { guild, text } = await setupHook();
    const user = await kit.addUser(guild.id, [(await kit.addRole(guild.id, 2, { permissions: P.ManageWebhooks })).id]);
    // A user's webhook (no application) made through the service the dashboard uses.
    const made = await createWebhook({ db: app.db, actor: user.actor }, { channelId: text.id, body: { name: "Links" } });
    const hook = made as unknown as WebhookBody;
    const link = [
      { type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Link, label: "Open", url: "https://example.com" }] },
    ];
    const press = [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Primary, label: "Go", custom_id: "go" }] }];
    // Answered with wait=false: the stored rows say what was kept.
    expect((await execute(hook, { content: "a", components: link })).status).toBe(204);
    expect((await execute(hook, { content: "b", components: link }, { with_components: true })).status).toBe(204);
    const stored = await app.db.message.findMany({ where: { webhookId: hook.id }, orderBy: { id: "asc" } });
    expect(stored.map((m) => (JSON.parse(m.components) as unknown[]).length)).toEqual([0, 1]);
    const refused = await execute(hook, { content: "c", components: press }, { wait: true, with_components: true });
    expect(refused.body.errors.components._errors[0].code).toBe("COMPONENT_INTERACTIVE_NOT_ALLOWED");
  });

  it("posts in a thread of its channel and reopens it when archived; refuses a thread of another channel", async () => {
    const { guild, api, text, hook } = await setupHook();
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "release", type: ChannelType.PublicThread })).body as { id: string };
    expect((await api.patch(`/channels/${thread.id}`, { archived: true })).status).toBe(200);
    const posted = await execute(hook, { content: "in the thread" }, { wait: true, thread_id: thread.id });
    expect(posted.status).toBe(200);
    expect(posted.body.channel_id).toBe(thread.id);
    expect((await api.get(`/channels/${thread.id}`)).body.thread_metadata.archived).toBe(false);
    expect((await kit.eventsOf(guild.id, E.ThreadUpdate)).at(-1)).toMatchObject({ id: thread.id, thread_metadata: { archived: false } });

    const other = await kit.addChannel(guild.id, ChannelType.GuildText);
    const elsewhere = (await api.post(`/channels/${other.id}/threads`, { name: "elsewhere", type: ChannelType.PublicThread })).body as { id: string };
    const refused = await execute(hook, { content: "wrong place" }, { wait: true, thread_id: elsewhere.id });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe(10003);
    expect(await app.db.message.count({ where: { channelId: elsewhere.id } })).toBe(0);
  });

  it("in a forum needs a thread (220001), and posts in one of the forum's posts with thread_id", async () => {
    const { guild, api } = await setupHook();
    const forum = await kit.addChannel(guild.id, ChannelType.GuildForum);
    const hook = await kit.webhook(api, forum.id, "Forum poster");
    const none = await execute(hook, { content: "where?" });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe(220001);
    const post = await writeGuildState(app.db, guild.id, (tx) =>
      tx.channel.create({
        data: { id: newId(), guildId: guild.id, name: "a post", type: ChannelType.PublicThread, parentId: forum.id, threadArchived: false },
      }),
    );
    expect((await execute(hook, { content: "reply" }, { wait: true, thread_id: post.id })).body.channel_id).toBe(post.id);
    expect((await execute(hook, { content: "both", thread_name: "x" }, { thread_id: post.id })).body.code).toBe(220002);
    const text = await setupHook();
    expect((await execute(text.hook, { content: "new post", thread_name: "x" })).body.code).toBe(220003);
  });
});
