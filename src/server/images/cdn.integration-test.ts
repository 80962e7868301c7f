import { describe, expect, it } from "vitest";
import type { HttpRequest } from "~/server/http/http-types.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { answerCdn } from "./cdn.ts";

// The CDN serves what people upload: a file must never act as a page of this origin.

const app = useTestApp();
const kit = threadKit(app);

// The smallest GIF: enough for the CDN to store and serve it as an image.
const GIF = Buffer.from("R0lGODlhAQABAAAAACw=", "base64");

function get(url: string): Promise<{ status: number; headers: Record<string, string> }> {
  const request: HttpRequest = {
    method: "GET",
    url,
    header: () => null,
    clientAddress: null,
    stream: () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }) as unknown as AsyncIterable<Uint8Array>,
  };
  return answerCdn(app.db, request);
}

async function upload(token: string, channelId: string, files: { name: string; type: string; data: BlobPart }[]): Promise<string[]> {
  const form = new FormData();
  form.set("payload_json", JSON.stringify({ content: "files" }));
  files.forEach((file, index) => form.set(`files[${index}]`, new Blob([file.data], { type: file.type }), file.name));
  const response = await app.dispatch(
    new Request(`http://guildhall.test/api/v10/channels/${channelId}/messages`, { method: "POST", headers: { authorization: `Bot ${token}` }, body: form }),
  );
  const message = (await response.json()) as { attachments: { url: string }[] };
  return message.attachments.map((attachment) => new URL(attachment.url).pathname);
}

describe("CDN answers", () => {
  it("are never sniffed nor run as a page; only images show inline, other files download", async () => {
    const { guild, text, owner } = await kit.setup();
    const [page, picture] = await upload(owner.token, text.id, [
      { name: "page.html", type: "text/html", data: "<script>alert(document.cookie)</script>" },
      { name: "dot.gif", type: "image/gif", data: GIF },
    ]);

    const html = await get(page!);
    expect(html.status).toBe(200);
    expect(html.headers).toMatchObject({
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "content-disposition": "attachment",
    });

    const image = await get(picture!);
    expect(image.headers).toMatchObject({
      "content-type": "image/gif",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
    });
    expect(image.headers["content-disposition"]).toBeUndefined();

    const patched = await app.as(`Bot ${owner.token}`).patch(`/guilds/${guild.id}`, { icon: `data:image/gif;base64,${GIF.toString("base64")}` });
    const icon = await get(`/cdn/icons/${guild.id}/${(patched.body as { icon: string }).icon}.gif`);
    expect(icon.status).toBe(200);
    expect(icon.headers).toMatchObject({ "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; sandbox" });

    const missing = await get(`/cdn/attachments/${text.id}/1/nothing.txt`);
    expect(missing.status).toBe(404);
    expect(missing.headers["x-content-type-options"]).toBe("nosniff");
  });
});
