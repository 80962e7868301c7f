import { ButtonStyle, ComponentType as C, MessageFlags } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);

const V2 = MessageFlags.IsComponentsV2;
const SCRIPT = "javascript:alert(document.cookie)";
const DATA = "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==";

const linkRow = (url: string) => ({ components: [{ type: C.ActionRow, components: [{ type: C.Button, style: ButtonStyle.Link, label: "Go", url }] }] });
const thumbnail = (url: string) => ({
  flags: V2,
  components: [{ type: C.Section, components: [{ type: C.TextDisplay, content: "x" }], accessory: { type: C.Thumbnail, media: { url } } }],
});
const gallery = (url: string) => ({ flags: V2, components: [{ type: C.Container, components: [{ type: C.MediaGallery, items: [{ media: { url } }] }] }] });
const file = (url: string) => ({ flags: V2, components: [{ type: C.File, file: { url } }] });
const embed = (fields: Record<string, unknown>) => ({ embeds: [{ title: "t", ...fields }] });

describe("URLs in messages", () => {
  it("takes http(s) links and attachment references where the platform does", async () => {
    const { text, api } = await kit.setup();
    const path = `/channels/${text.id}/messages`;
    for (const body of [
      { content: "a", ...linkRow("https://example.com/a") },
      { content: "a", ...linkRow("discord://-/channels/@me") },
      thumbnail("https://example.com/a.png"),
      thumbnail("attachment://a.png"),
      gallery("http://example.com/a.png"),
      file("attachment://report.pdf"),
      embed({ url: "https://example.com", image: { url: "attachment://a.png" }, author: { name: "n", icon_url: "https://example.com/i.png" } }),
    ]) {
      const res = await api.post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
    }
  });

  it("refuses javascript:, data: and other schemes in every URL field with 50035, naming the field", async () => {
    const { text, api } = await kit.setup();
    const path = `/channels/${text.id}/messages`;
    const cases: [unknown, string][] = [
      [{ content: "a", ...linkRow(SCRIPT) }, "components.0.components.0.url"],
      [{ content: "a", ...linkRow(" JavaScript:alert(1)") }, "components.0.components.0.url"],
      [{ content: "a", ...linkRow("attachment://a.png") }, "components.0.components.0.url"],
      [thumbnail(DATA), "components.0.accessory.media.url"],
      [gallery(SCRIPT), "components.0.components.0.items.0.media.url"],
      [file("https://example.com/report.pdf"), "components.0.file.url"],
      [file(DATA), "components.0.file.url"],
      [embed({ url: SCRIPT }), "embeds.0.url"],
      [embed({ url: "attachment://a.png" }), "embeds.0.url"],
      [embed({ thumbnail: { url: DATA } }), "embeds.0.thumbnail.url"],
      [embed({ author: { name: "n", url: SCRIPT } }), "embeds.0.author.url"],
      [embed({ footer: { text: "f", icon_url: "file:///etc/passwd" } }), "embeds.0.footer.icon_url"],
    ];
    for (const [body, at] of cases) {
      const res = await api.post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe(50035);
      expect(res.body.errors).toHaveProperty(`${at}._errors.0.code`, "URL_TYPE_INVALID_SCHEME");
    }
    expect(await app.db.message.count({ where: { channelId: text.id } })).toBe(0);
  });
});
