import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { crc32, deflateSync } from "node:zlib";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { MAX_FILE_BYTES } from "~/server/http/http-types.ts";
import { serveNode } from "~/server/http/node-adapter.ts";
import { readAttachmentFile } from "~/server/images/image.service.ts";
import { loadConformance } from "~/test/openapi-conformance.ts";
import { bot } from "~/test/rest-client.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { until } from "~/test/until.ts";

const app = useTestApp();
const kit = threadKit(app);

/** A real PNG of `width` × `height` grey pixels. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x80)])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function postForm(token: string, path: string, form: FormData, method = "POST") {
  const response = await app.dispatch(new Request(`http://guildhall.test/api/v10${path}`, { method, headers: { authorization: `Bot ${token}` }, body: form }));
  return { status: response.status, body: await response.json() };
}

function attachmentsStored(channelId: string) {
  return app.db.image.count({ where: { path: { startsWith: `attachments/${channelId}/` } } });
}

describe("messages with files", () => {
  it("stores a PNG and a text file from files[n] with payload_json, spoilers either way, served under /cdn/attachments", async () => {
    const { text, owner } = await kit.setup();
    const image = png(3, 2);
    const form = new FormData();
    form.set(
      "payload_json",
      JSON.stringify({
        content: "files",
        attachments: [
          { id: 0, description: "a grey square" },
          { id: 1, is_spoiler: true, title: "Notes" },
        ],
      }),
    );
    form.set("files[0]", new Blob([new Uint8Array(image)], { type: "image/png" }), "grey square.png");
    form.set("files[1]", new Blob(["hello notes"], { type: "text/plain" }), "notes.txt");
    form.set("files[2]", new Blob(["boo"]), "SPOILER_ghost.txt");
    const res = await postForm(owner.token, `/channels/${text.id}/messages`, form);
    expect(res.status).toBe(200);
    expect(loadConformance().checkSchema("MessageResponse", res.body)).toBeNull();
    const [picture, notes, ghost] = res.body.attachments;
    expect(picture).toMatchObject({
      filename: "grey_square.png",
      description: "a grey square",
      content_type: "image/png",
      size: image.length,
      width: 3,
      height: 2,
    });
    expect(picture.flags).toBeUndefined();
    expect(notes).toMatchObject({ filename: "notes.txt", title: "Notes", content_type: "text/plain", size: 11, flags: 8 });
    expect(notes.width).toBeUndefined();
    expect(ghost).toMatchObject({ filename: "SPOILER_ghost.txt", content_type: "text/plain; charset=utf-8", flags: 8 });

    const served = await readAttachmentFile(app.db, new URL(picture.url).pathname);
    expect(Buffer.from(served!.data).equals(image)).toBe(true);
    expect(new URL(notes.proxy_url).pathname).toBe(`/cdn/attachments/${text.id}/${notes.id}/notes.txt`);
    expect(Buffer.from((await readAttachmentFile(app.db, new URL(notes.url).pathname))!.data).toString()).toBe("hello notes");
    expect(await readAttachmentFile(app.db, `/cdn/attachments/${text.id}/1/notes.txt`)).toBeNull();
  });

  it("takes plain form fields without payload_json, and needs ATTACH_FILES", async () => {
    const { guild, text, owner } = await kit.setup();
    const form = new FormData();
    form.set("content", "just a file");
    form.set("file", new Blob(["x"]), "x.txt");
    const res = await postForm(owner.token, `/channels/${text.id}/messages`, form);
    expect(res.body).toMatchObject({ content: "just a file", attachments: [{ filename: "x.txt" }] });

    await kit.setEveryone(guild.id, 0n);
    const member = await kit.addBotWithRole(guild.id, P.ViewChannel | P.SendMessages, 1);
    const refused = await postForm(member.token, `/channels/${text.id}/messages`, form);
    expect(refused.body).toEqual({ code: 50013, message: "Missing Permissions" });
    const eleven = new FormData();
    for (let i = 0; i < 11; i++) eleven.set(`files[${i}]`, new Blob(["x"]), `f${i}.txt`);
    expect((await postForm(owner.token, `/channels/${text.id}/messages`, eleven)).body.errors.files._errors[0].code).toBe("BASE_TYPE_MAX_LENGTH");
    const badJson = new FormData();
    badJson.set("payload_json", "{nope");
    expect((await postForm(owner.token, `/channels/${text.id}/messages`, badJson)).body.code).toBe(50109);
  });

  it("refuses a file over 20 MiB with 40005 without reading the rest, and stores nothing", async () => {
    const { text, owner } = await kit.setup();
    const boundary = "guildhallboundary";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{"content":"big"}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const totalChunks = 40; // a 40 MiB file
    let sent = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (sent === 0) controller.enqueue(head);
          if (sent === totalChunks) {
            controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
            controller.close();
            return;
          }
          sent++;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const response = await app.dispatch(
      new Request(`http://guildhall.test/api/v10/channels/${text.id}/messages`, {
        method: "POST",
        headers: { authorization: `Bot ${owner.token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ code: 40005, message: "Request entity too large" });
    // Read up to the limit and a little past it, not the 40 MiB sent.
    expect(sent * chunk.length).toBeLessThanOrEqual(MAX_FILE_BYTES + 2 * chunk.length);
    expect(await app.db.message.count({ where: { channelId: text.id } })).toBe(0);
    expect(await attachmentsStored(text.id)).toBe(0);
  });

  it("answers 40005 over node:http too, and takes a file of exactly 20 MiB", async () => {
    const { text, owner } = await kit.setup();
    const server = createServer((req, res) => serveNode(app.handler, req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const send = async (size: number) => {
        const form = new FormData();
        form.set("files[0]", new Blob([new Uint8Array(size).fill(1)]), "blob.bin");
        const res = await fetch(`http://127.0.0.1:${port}/api/v10/channels/${text.id}/messages`, {
          method: "POST",
          headers: { authorization: `Bot ${owner.token}` },
          body: form,
        });
        return { status: res.status, body: await res.json() };
      };
      expect((await send(MAX_FILE_BYTES + 1)).body).toEqual({ code: 40005, message: "Request entity too large" });
      expect(await attachmentsStored(text.id)).toBe(0);
      const fits = await send(MAX_FILE_BYTES);
      expect(fits.status).toBe(200);
      expect(fits.body.attachments[0].size).toBe(MAX_FILE_BYTES);
    } finally {
      server.close();
    }
  });

  it("keeps only the attachments an edit lists, appends new files, and removes the others' files", async () => {
    const { text, owner } = await kit.setup();
    const form = new FormData();
    form.set("payload_json", JSON.stringify({ content: "two files" }));
    form.set("files[0]", new Blob(["a"]), "a.txt");
    form.set("files[1]", new Blob(["b"]), "b.txt");
    const sent = (await postForm(owner.token, `/channels/${text.id}/messages`, form)).body;
    const [a, b] = sent.attachments;

    const edit = new FormData();
    edit.set("payload_json", JSON.stringify({ attachments: [{ id: b.id, description: "kept", is_spoiler: true }, { id: 0 }] }));
    edit.set("files[0]", new Blob(["c"]), "c.txt");
    const edited = await postForm(owner.token, `/channels/${text.id}/messages/${sent.id}`, edit, "PATCH");
    expect(edited.status).toBe(200);
    expect(edited.body.attachments.map((x: { filename: string }) => x.filename)).toEqual(["b.txt", "c.txt"]);
    expect(edited.body.attachments[0]).toMatchObject({ id: b.id, description: "kept", flags: 8 });
    expect(await readAttachmentFile(app.db, new URL(a.url).pathname)).toBeNull();
    // Removed files leave the store once the change has committed.
    await until(async () => (await attachmentsStored(text.id)) === 2);
    const api = app.as(bot(owner.token));
    // Without an attachments array every stored file stays.
    expect((await api.patch(`/channels/${text.id}/messages/${sent.id}`, { content: "still two" })).body.attachments).toHaveLength(2);
    expect((await api.patch(`/channels/${text.id}/messages/${sent.id}`, { attachments: [{ id: "1" }] })).body.errors.attachments["0"].id._errors[0].code).toBe(
      "ATTACHMENT_NOT_FOUND",
    );
    expect((await api.delete(`/channels/${text.id}/messages/${sent.id}`)).status).toBe(204);
    await until(async () => (await attachmentsStored(text.id)) === 0);
  });
});
