import { ChannelType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { useTestApp } from "~/test/test-app.ts";
import { INVALID_WEBHOOK_TOKEN, webhookKit, type WebhookBody } from "~/test/webhook-kit.ts";

const app = useTestApp();
const kit = webhookKit(app);
const slack = (hook: WebhookBody, body: unknown, query: Record<string, string | boolean> = {}) =>
  app.as().post(`/webhooks/${hook.id}/${hook.token}/slack`, body, { query });

const setupHook = () => kit.setupWithWebhook("Alerts");

/** The webhook's latest message as its own messages endpoint answers it (a bot without the content intent would see it emptied). */
async function lastOf(hook: WebhookBody) {
  const row = await app.db.message.findFirstOrThrow({ where: { webhookId: hook.id }, orderBy: { createdAt: "desc" } });
  return (await app.as().get(`/webhooks/${hook.id}/${hook.token}/messages/${row.id}`)).body;
}

describe("POST /webhooks/:webhookId/:token/slack", () => {
  it("turns text, username, icon_url and attachments into the platform's message and embeds, ignoring the unsupported keys", async () => {
    const { hook } = await setupHook();
    const res = await slack(hook, {
      text: "Deploy finished",
      username: "deploy-bot",
      icon_url: "https://example.com/deploy.png",
      channel: "#ops",
      icon_emoji: ":rocket:",
      mrkdwn: true,
      attachments: [
        {
          color: "#36a64f",
          pretext: "Production is updated",
          author_name: "Ana",
          author_link: "https://example.com/ana",
          author_icon: "https://example.com/ana.png",
          title: "Release 4.2",
          title_link: "https://example.com/releases/4.2",
          text: "Three services rolled out",
          fields: [
            { title: "Region", value: "eu-west", short: true },
            { title: "Duration", value: "4 min", short: false },
          ],
          image_url: "https://example.com/graph.png",
          thumb_url: "https://example.com/thumb.png",
          footer: "deployer",
          footer_icon: "https://example.com/footer.png",
          ts: 1700000000,
          mrkdwn_in: ["text"],
        },
        { color: "danger", title: "Rollback ready" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe("ok");
    const message = await lastOf(hook);
    expect(message).toMatchObject({
      content: "Deploy finished\nProduction is updated",
      webhook_id: hook.id,
      author: { username: "deploy-bot" },
    });
    expect(message.embeds).toEqual([
      expect.objectContaining({
        title: "Release 4.2",
        url: "https://example.com/releases/4.2",
        description: "Three services rolled out",
        color: 0x36a64f,
        author: expect.objectContaining({ name: "Ana", url: "https://example.com/ana", icon_url: "https://example.com/ana.png" }),
        fields: [
          { name: "Region", value: "eu-west", inline: true },
          { name: "Duration", value: "4 min", inline: false },
        ],
        image: expect.objectContaining({ url: "https://example.com/graph.png" }),
        thumbnail: expect.objectContaining({ url: "https://example.com/thumb.png" }),
        footer: expect.objectContaining({ text: "deployer", icon_url: "https://example.com/footer.png" }),
        timestamp: expect.stringMatching(/^2023-11-14T22:13:20(\.000)?(Z|\+00:00)$/),
      }),
      expect.objectContaining({ title: "Rollback ready", color: 0xa30200 }),
    ]);
    const stored = await app.db.message.findUniqueOrThrow({ where: { id: message.id } });
    expect(stored.authorAvatarUrl).toBe("https://example.com/deploy.png");
  });

  it("cuts texts longer than an embed allows and leaves out embeds past ten", async () => {
    const { hook } = await setupHook();
    const many = Array.from({ length: 12 }, (_, i) => ({ title: `alert ${i}` }));
    expect((await slack(hook, { attachments: [{ title: "t".repeat(300), text: "d".repeat(5000) }, ...many] })).status).toBe(200);
    const message = await lastOf(hook);
    expect(message.embeds).toHaveLength(10);
    expect(message.embeds[0].title).toHaveLength(256);
    expect(message.embeds[0].description).toHaveLength(4096);
  });

  it("refuses an empty or invalid payload and a wrong token; answers ok with wait=false too; thread_id posts in a thread", async () => {
    const { api, text, hook } = await setupHook();
    const empty = await slack(hook, { channel: "#ops" });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe(50006);
    expect(await app.db.message.count({ where: { webhookId: hook.id } })).toBe(0);
    expect((await slack(hook, { text: "quick" }, { wait: false })).body).toBe("ok");
    expect((await lastOf(hook)).content).toBe("quick");
    expect((await slack(hook, { text: "x".repeat(2001) })).body.errors.text._errors[0].code).toBe("BASE_TYPE_MAX_LENGTH");
    expect((await slack(hook, { attachments: [{ title: "x", color: "blue" }] })).status).toBe(400);
    // A time no date can hold: refused with its field, not a failure of the server.
    const farOff = await slack(hook, { attachments: [{ title: "x", ts: -9007199254740991 }] });
    expect(farOff.status).toBe(400);
    expect(farOff.body.errors.attachments[0].ts._errors[0].message).toBe("Could not parse timestamp.");
    expect((await app.as().post(`/webhooks/${hook.id}/${"x".repeat(68)}/slack`, { text: "hi" })).body).toEqual(INVALID_WEBHOOK_TOKEN);

    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "incident", type: ChannelType.PublicThread })).body as { id: string };
    expect((await slack(hook, { text: "in the thread" }, { thread_id: thread.id })).status).toBe(200);
    expect(await app.db.message.findFirst({ where: { channelId: thread.id } })).toMatchObject({ content: "in the thread", webhookId: hook.id });
  });

  it("takes the product's URL-encoded form (payload as JSON) and plain form fields; a payload that is not JSON is 50109", async () => {
    const { hook } = await setupHook();
    const send = async (body: URLSearchParams | FormData) => {
      const url = `http://guildhall.test/api/v10/webhooks/${hook.id}/${hook.token}/slack`;
      const response = await app.dispatch(new Request(url, { method: "POST", body }));
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const encoded = new URLSearchParams({ payload: JSON.stringify({ text: "from a form", attachments: [{ title: "Backup done", color: "good" }] }) });
    expect(await send(encoded)).toEqual({ status: 200, body: "ok" });
    expect(await lastOf(hook)).toMatchObject({ content: "from a form", embeds: [expect.objectContaining({ title: "Backup done", color: 0x2eb886 })] });

    const fields = new FormData();
    fields.set("text", "plain fields");
    fields.set("username", "cron");
    expect((await send(fields)).status).toBe(200);
    expect(await lastOf(hook)).toMatchObject({ content: "plain fields", author: { username: "cron" } });

    const broken = await send(new URLSearchParams({ payload: "{not json" }));
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ code: 50109 });
  });
});
