import { GuildFeature } from "discord-api-types/v10";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { HttpRequest } from "~/server/http/http-types.ts";
import { writeGuildState } from "~/test/factories.ts";
import { useHttpServer } from "~/test/http-server.ts";
import { PNG } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { answerCdn, cdnHandler } from "./cdn.ts";
import { imageDimensions } from "./image-dimensions.ts";

// The CDN serves what people upload: a file must never act as a page of this origin.

const app = useTestApp();
const kit = threadKit(app);
const server = useHttpServer(() => cdnHandler(() => app.db));

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

    const patched = await app.as(`Bot ${owner.token}`).patch(`/guilds/${guild.id}`, { icon: PNG });
    const icon = await get(`/cdn/icons/${guild.id}/${(patched.body as { icon: string }).icon}.png`);
    expect(icon.status).toBe(200);
    expect(icon.headers).toMatchObject({ "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; sandbox" });

    const missing = await get(`/cdn/attachments/${text.id}/1/nothing.txt`);
    expect(missing.status).toBe(404);
    expect(missing.headers["x-content-type-options"]).toBe("nosniff");
  });
});

/** A square of one colour, `size` pixels wide, as PNG. */
function square(size: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 4, background: colour } })
    .png()
    .toBuffer();
}

const MAGIC: Record<string, (bytes: Buffer) => boolean> = {
  "image/png": (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  "image/webp": (bytes) => bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP",
  "image/gif": (bytes) => bytes.subarray(0, 6).toString("latin1") === "GIF89a",
};

async function fetchImage(path: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(server.url(path));
  return { status: response.status, type: response.headers.get("content-type"), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("CDN image formats", () => {
  async function guildWithIcon(icon: Buffer, type: "png" | "gif"): Promise<{ guildId: string; hash: string }> {
    const { guild, owner } = await kit.setup();
    // Animated icons are a feature boosted guilds have.
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.guild.update({ where: { id: guild.id }, data: { features: JSON.stringify([GuildFeature.AnimatedIcon]) } }),
    );
    const patched = await app.as(`Bot ${owner.token}`).patch(`/guilds/${guild.id}`, { icon: `data:image/${type};base64,${icon.toString("base64")}` });
    expect(patched.status).toBe(200);
    return { guildId: guild.id, hash: (patched.body as { icon: string }).icon };
  }

  it("serves an icon in the format its extension names, at the size asked", async () => {
    const { guildId, hash } = await guildWithIcon(await square(64, "#5865f2"), "png");
    for (const [extension, type] of [
      ["png", "image/png"],
      ["webp", "image/webp"],
      ["jpg", "image/jpeg"],
      ["jpeg", "image/jpeg"],
    ] as const) {
      const image = await fetchImage(`/cdn/icons/${guildId}/${hash}.${extension}`);
      expect(image.status, extension).toBe(200);
      expect(image.type, extension).toBe(type);
      expect(MAGIC[type]!(image.bytes), `${extension} bytes`).toBe(true);
      expect(imageDimensions(image.bytes), extension).toEqual({ width: 64, height: 64 });
    }

    const small = await fetchImage(`/cdn/icons/${guildId}/${hash}.webp?size=16`);
    expect(small.type).toBe("image/webp");
    expect(imageDimensions(small.bytes)).toEqual({ width: 16, height: 16 });
    // Never larger than uploaded.
    expect(imageDimensions((await fetchImage(`/cdn/icons/${guildId}/${hash}.png?size=4096`)).bytes)).toEqual({ width: 64, height: 64 });

    for (const size of ["100", "8", "8192", "abc", ""]) {
      expect((await fetchImage(`/cdn/icons/${guildId}/${hash}.png?size=${size}`)).status, `size=${size}`).toBe(400);
    }
    // GIF only for animated images, as on the platform.
    expect((await fetchImage(`/cdn/icons/${guildId}/${hash}.gif`)).status).toBe(415);
    expect((await fetchImage(`/cdn/icons/${guildId}/${hash}.bmp`)).status).toBe(404);
  });

  it("serves an animated icon as GIF, and its first frame in the other formats", async () => {
    const frames = [await square(32, "#ff0000"), await square(32, "#0000ff")];
    const animated = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    const { guildId, hash } = await guildWithIcon(animated, "gif");
    expect(hash).toMatch(/^a_/);

    const gif = await fetchImage(`/cdn/icons/${guildId}/${hash}.gif`);
    expect(gif.type).toBe("image/gif");
    expect(gif.bytes.equals(animated)).toBe(true);
    const smallGif = await fetchImage(`/cdn/icons/${guildId}/${hash}.gif?size=16`);
    expect(smallGif.type).toBe("image/gif");
    expect((await sharp(smallGif.bytes, { animated: true }).metadata()).pages).toBe(2);

    const png = await fetchImage(`/cdn/icons/${guildId}/${hash}.png`);
    expect(png.type).toBe("image/png");
    const { data } = await sharp(png.bytes).raw().toBuffer({ resolveWithObject: true });
    // The first frame: red.
    expect([...data.subarray(0, 3)]).toEqual([255, 0, 0]);
  });
});

/** A CDN GET over HTTP, as a browser or a caching proxy sends it. */
async function cdnGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; size: number }> {
  const response = await fetch(server.url(path), { headers });
  return { status: response.status, headers: response.headers, size: (await response.arrayBuffer()).byteLength };
}

describe("CDN lifetimes", () => {
  it("keeps an attachment 5 minutes, then revalidates it with its ETag, and answers its deletion with an uncached 404", async () => {
    const { text, owner } = await kit.setup();
    const form = new FormData();
    form.set("payload_json", JSON.stringify({ content: "a file" }));
    form.set("files[0]", new Blob(["short-lived"], { type: "text/plain" }), "notes.txt");
    const posted = await app.dispatch(
      new Request(`http://guildhall.test/api/v10/channels/${text.id}/messages`, {
        method: "POST",
        headers: { authorization: `Bot ${owner.token}` },
        body: form,
      }),
    );
    const message = (await posted.json()) as { id: string; attachments: { url: string }[] };
    const path = new URL(message.attachments[0]!.url).pathname;

    const first = await cdnGet(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, max-age=300, must-revalidate");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await cdnGet(path, { "if-none-match": ifNoneMatch });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.size).toBe(0);
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("cache-control")).toBe("public, max-age=300, must-revalidate");
    }
    expect((await cdnGet(path, { "if-none-match": '"other"' })).status).toBe(200);

    const deleted = await app.as(`Bot ${owner.token}`).delete(`/channels/${text.id}/messages/${message.id}`);
    expect(deleted.status).toBe(204);
    for (const headers of [{}, { "if-none-match": etag }] as Record<string, string>[]) {
      const gone = await cdnGet(path, headers);
      expect(gone.status).toBe(404);
      expect(gone.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("keeps an image an hour, each variant revalidated under its own ETag, and 404 once replaced", async () => {
    const { guild, owner } = await kit.setup();
    const patched = await app
      .as(`Bot ${owner.token}`)
      .patch(`/guilds/${guild.id}`, { icon: `data:image/png;base64,${(await square(64, "#23a55a")).toString("base64")}` });
    const icon = `/cdn/icons/${guild.id}/${(patched.body as { icon: string }).icon}`;

    const stored = await cdnGet(`${icon}.png`);
    const small = await cdnGet(`${icon}.webp?size=16`);
    for (const answer of [stored, small]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("public, max-age=3600, must-revalidate");
    }
    expect(small.headers.get("etag")).not.toBe(stored.headers.get("etag"));
    const revalidated = await cdnGet(`${icon}.webp?size=16`, { "if-none-match": small.headers.get("etag")! });
    expect([revalidated.status, revalidated.size]).toEqual([304, 0]);
    // Another variant's tag is not this one's.
    expect((await cdnGet(`${icon}.webp?size=32`, { "if-none-match": small.headers.get("etag")! })).status).toBe(200);
    // Refusals are not cached either.
    const refused = await cdnGet(`${icon}.png?size=100`);
    expect([refused.status, refused.headers.get("cache-control")]).toEqual([400, "no-store"]);

    expect((await app.as(`Bot ${owner.token}`).patch(`/guilds/${guild.id}`, { icon: PNG })).status).toBe(200);
    for (const [path, headers] of [
      [`${icon}.png`, {}],
      [`${icon}.webp?size=16`, { "if-none-match": small.headers.get("etag")! }],
    ] as const) {
      const gone = await cdnGet(path, headers);
      expect([gone.status, gone.headers.get("cache-control")], path).toEqual([404, "no-store"]);
    }
  });
});
