import {
  Routes,
  ButtonStyle,
  ChannelType,
  ComponentType,
  GatewayDispatchEvents as E,
  MessageFlags,
  PermissionFlagsBits as P,
  type APIMessage,
} from "discord-api-types/v10";
import { DiscordAPIError } from "@discordjs/rest";
import { describe, expect, it } from "vitest";
import { createWebhook } from "./webhook.service.ts";
import { useLibraryServer } from "~/test/library-server.ts";
import { useTestApp } from "~/test/test-app.ts";
import { INVALID_WEBHOOK_TOKEN, webhookKit, type WebhookBody } from "~/test/webhook-kit.ts";

const app = useTestApp();
const kit = webhookKit(app);
const library = useLibraryServer(app);
const anonymous = () => app.as();
const UNKNOWN_MESSAGE = { code: 10008, message: "Unknown Message" };

type Message = { id: string; content: string; flags: number; attachments: { id: string; filename: string }[]; [key: string]: any };

const messagePath = (hook: WebhookBody, messageId: string) => `/webhooks/${hook.id}/${hook.token}/messages/${messageId}`;

async function post(hook: WebhookBody, body: unknown, query: Record<string, string | boolean> = {}): Promise<Message> {
  const res = await anonymous().post(`/webhooks/${hook.id}/${hook.token}`, body, { query: { wait: true, ...query } });
  if (res.status !== 200) throw new Error(`not posted: ${JSON.stringify(res.body)}`);
  return res.body as Message;
}

/** A multipart request as a client library sends it: payload_json and files[n]. */
async function multipart(method: "POST" | "PATCH", path: string, payload: unknown, files: Record<number, string>) {
  const form = new FormData();
  form.set("payload_json", JSON.stringify(payload));
  for (const [index, name] of Object.entries(files)) form.set(`files[${index}]`, new Blob([`contents of ${name}`], { type: "text/plain" }), name);
  const response = await app.dispatch(new Request(`http://guildhall.test/api/v10${path}`, { method, body: form }));
  return { status: response.status, body: (await response.json()) as Message & { code?: number; errors?: any } };
}

const setupHook = () => kit.setupWithWebhook("Deploys");

describe("GET /webhooks/:webhookId/:token/messages/:messageId", () => {
  it("answers the webhook's own messages, in a thread only with its thread_id; 10008 for others' messages, 50027 for a wrong token", async () => {
    const { api, text, hook } = await setupHook();
    const mine = await post(hook, { content: "deployed" });
    const got = await anonymous().get(messagePath(hook, mine.id));
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: mine.id, content: "deployed", webhook_id: hook.id, channel_id: text.id });

    const other = await kit.webhook(api, text.id, "Other");
    const theirs = await post(other, { content: "not yours" });
    const bots = (await api.post(`/channels/${text.id}/messages`, { content: "a bot's" })).body as Message;
    expect((await anonymous().get(messagePath(hook, theirs.id))).body).toEqual(UNKNOWN_MESSAGE);
    expect((await anonymous().get(messagePath(hook, bots.id))).body).toEqual(UNKNOWN_MESSAGE);
    expect((await anonymous().get(messagePath(hook, "12345"))).body).toEqual(UNKNOWN_MESSAGE);
    expect((await anonymous().get(`/webhooks/${hook.id}/${"x".repeat(68)}/messages/${mine.id}`)).body).toEqual(INVALID_WEBHOOK_TOKEN);

    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "release", type: ChannelType.PublicThread })).body as { id: string };
    const inThread = await post(hook, { content: "in the thread" }, { thread_id: thread.id });
    expect((await anonymous().get(messagePath(hook, inThread.id))).body).toEqual(UNKNOWN_MESSAGE);
    expect((await anonymous().get(messagePath(hook, inThread.id), { query: { thread_id: thread.id } })).body.content).toBe("in the thread");
    expect((await anonymous().get(messagePath(hook, mine.id), { query: { thread_id: thread.id } })).body).toEqual(UNKNOWN_MESSAGE);
  });
});

describe("PATCH /webhooks/:webhookId/:token/messages/:messageId", () => {
  it("rebuilds the mentions from new content with default allowances when the edit omits them, sets edited_timestamp, fires Message Update", async () => {
    const { guild, hook } = await setupHook();
    const member = await kit.addUser(guild.id);
    const role = await kit.addRole(guild.id, 2, { name: "oncall" });
    // The original request allowed no mentions at all.
    const sent = await post(hook, { content: `<@${member.user.id}> @everyone`, allowed_mentions: { parse: [] } });
    expect(sent.mentions).toEqual([]);
    expect(sent.mention_everyone).toBe(false);

    const edited = await anonymous().patch(messagePath(hook, sent.id), { content: `<@${member.user.id}> <@&${role.id}> @everyone` });
    expect(edited.status).toBe(200);
    expect(edited.body.mentions.map((u: { id: string }) => u.id)).toEqual([member.user.id]);
    expect(edited.body.mention_roles).toEqual([role.id]);
    expect(edited.body.mention_everyone).toBe(true);
    expect(edited.body.edited_timestamp).not.toBeNull();

    const quiet = await anonymous().patch(messagePath(hook, sent.id), { content: `<@${member.user.id}> again`, allowed_mentions: { parse: [] } });
    expect(quiet.body).toMatchObject({ content: `<@${member.user.id}> again`, mentions: [], mention_roles: [], mention_everyone: false });
    // An edit that leaves the content alone keeps its mentions.
    const embedOnly = await anonymous().patch(messagePath(hook, edited.body.id), { embeds: [{ title: "Build 12" }] });
    expect(embedOnly.body).toMatchObject({ content: `<@${member.user.id}> again`, mentions: [] });
    expect(embedOnly.body.embeds).toEqual([expect.objectContaining({ title: "Build 12" })]);

    const updates = await kit.eventsOf(guild.id, E.MessageUpdate);
    expect(updates.map((e) => [e.id, e.content])).toEqual([
      [sent.id, `<@${member.user.id}> <@&${role.id}> @everyone`],
      [sent.id, `<@${member.user.id}> again`],
      [sent.id, `<@${member.user.id}> again`],
    ]);
  });

  it("appends new files and, given attachments, keeps only those it lists (v10); an unknown attachment id is 50035", async () => {
    const { hook } = await setupHook();
    const created = await multipart("POST", `/webhooks/${hook.id}/${hook.token}?wait=true`, { content: "logs" }, { 0: "a.txt", 1: "b.txt" });
    expect(created.status).toBe(200);
    const [a, b] = created.body.attachments;

    const appended = await multipart("PATCH", messagePath(hook, created.body.id), {}, { 0: "c.txt" });
    expect(appended.status).toBe(200);
    expect(appended.body.attachments.map((x) => x.filename)).toEqual(["a.txt", "b.txt", "c.txt"]);
    const c = appended.body.attachments[2]!;

    // Lists a and the new file: b and c go, from the message and from the store.
    const replaced = await multipart(
      "PATCH",
      messagePath(hook, created.body.id),
      { attachments: [{ id: a!.id }, { id: 0, description: "today" }] },
      { 0: "d.txt" },
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.attachments.map((x) => x.filename)).toEqual(["a.txt", "d.txt"]);
    expect(replaced.body.attachments[1]).toMatchObject({ description: "today" });
    expect(await app.db.attachment.count({ where: { id: { in: [b!.id, c.id] } } })).toBe(0);

    const none = await anonymous().patch(messagePath(hook, created.body.id), { attachments: [] });
    expect(none.body.attachments).toEqual([]);
    expect(none.body.content).toBe("logs");

    const unknown = await anonymous().patch(messagePath(hook, created.body.id), { attachments: [{ id: "123456789012345678" }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.attachments["0"].id._errors[0].code).toBe("ATTACHMENT_NOT_FOUND");
  });

  it("sets and unsets SUPPRESS_EMBEDS; sets IS_COMPONENTS_V2 only once content, embeds, files and poll are gone, and never unsets it; refuses a poll", async () => {
    const { hook } = await setupHook();
    const sent = await post(hook, { content: "status", embeds: [{ title: "green" }] });
    const path = messagePath(hook, sent.id);
    expect((await anonymous().patch(path, { flags: MessageFlags.SuppressEmbeds })).body.flags).toBe(MessageFlags.SuppressEmbeds);
    expect((await anonymous().patch(path, { flags: 0 })).body.flags).toBe(0);

    // With its id given: the platform numbers components that come without one, which the core does not do yet.
    const text = [{ type: ComponentType.TextDisplay, id: 1, content: "all systems go" }];
    const early = await anonymous().patch(path, { flags: MessageFlags.IsComponentsV2, components: text });
    expect(early.status).toBe(400);
    expect(Object.keys(early.body.errors).sort()).toEqual(["content", "embeds"]);
    expect((await app.db.message.findUniqueOrThrow({ where: { id: sent.id } })).flags).toBe(0);

    const v2 = await anonymous().patch(path, { content: null, embeds: null, flags: MessageFlags.IsComponentsV2, components: text });
    expect(v2.status).toBe(200);
    expect(v2.body).toMatchObject({
      content: "",
      embeds: [],
      flags: MessageFlags.IsComponentsV2,
      components: [expect.objectContaining({ content: "all systems go" })],
    });
    expect((await anonymous().patch(path, { flags: 0 })).body.flags).toBe(MessageFlags.IsComponentsV2);
    expect((await anonymous().patch(path, { content: "back to text" })).body.errors).toHaveProperty("content");

    const poll = await anonymous().patch(messagePath(hook, (await post(hook, { content: "vote" })).id), {
      poll: { question: { text: "Ship?" }, answers: [{ poll_media: { text: "yes" } }] },
    });
    expect(poll.status).toBe(400);
    expect(poll.body.errors.poll._errors[0].code).toBe("POLL_EDIT_NOT_ALLOWED");
  });

  it("ignores components from a webhook no application owns without with_components, and takes non-interactive ones with it", async () => {
    const { hook, guild, text } = await setupHook();
    const user = await kit.addUser(guild.id, [(await kit.addRole(guild.id, 2, { permissions: P.ManageWebhooks })).id]);
    // A user's webhook (no application) made through the service the dashboard uses.
    const plain = (await createWebhook({ db: app.db, actor: user.actor }, { channelId: text.id, body: { name: "Links" } })) as unknown as WebhookBody;
    expect(hook.application_id).toBeTruthy();
    const link = [
      {
        type: ComponentType.ActionRow,
        id: 1,
        components: [{ type: ComponentType.Button, id: 2, style: ButtonStyle.Link, label: "Open", url: "https://example.com" }],
      },
    ];
    const sent = await post(plain, { content: "release" });
    expect((await anonymous().patch(messagePath(plain, sent.id), { components: link })).body.components).toEqual([]);
    const withComponents = await anonymous().patch(messagePath(plain, sent.id), { components: link }, { query: { with_components: true } });
    expect(withComponents.body.components).toHaveLength(1);
  });
});

describe("DELETE /webhooks/:webhookId/:token/messages/:messageId", () => {
  it("deletes the webhook's own message with Message Delete, and only its own", async () => {
    const { guild, api, text, hook } = await setupHook();
    const sent = await post(hook, { content: "oops" });
    const other = await post(await kit.webhook(api, text.id, "Other"), { content: "keep" });
    expect((await anonymous().delete(messagePath(hook, other.id))).body).toEqual(UNKNOWN_MESSAGE);
    expect((await anonymous().delete(messagePath(hook, sent.id))).status).toBe(204);
    expect((await anonymous().get(messagePath(hook, sent.id))).body).toEqual(UNKNOWN_MESSAGE);
    expect(await kit.eventsOf(guild.id, E.MessageDelete)).toEqual([{ id: sent.id, channel_id: text.id, guild_id: guild.id }]);
    expect(await app.db.message.count({ where: { id: other.id } })).toBe(1);
  });
});

describe("webhook messages through @discordjs/rest", () => {
  it("gets, edits and deletes a message the way a webhook client does, without a token", async () => {
    const { hook } = await setupHook();
    const rest = library.client();
    const sent = (await rest.post(Routes.webhook(hook.id, hook.token), {
      body: { content: "from the library" },
      query: new URLSearchParams({ wait: "true" }),
      auth: false,
    })) as APIMessage;
    const route = Routes.webhookMessage(hook.id, hook.token, sent.id);
    expect(((await rest.get(route, { auth: false })) as APIMessage).content).toBe("from the library");
    const edited = (await rest.patch(route, { body: { content: "edited by the library" }, auth: false })) as APIMessage;
    expect(edited.content).toBe("edited by the library");
    await rest.delete(route, { auth: false });
    const gone = await rest.get(route, { auth: false }).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(DiscordAPIError);
    expect((gone as DiscordAPIError).code).toBe(10008);
  });
});
