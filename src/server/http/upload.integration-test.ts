import { request as httpRequest, type ClientRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createRateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { createDispatcher, type Dispatcher } from "~/server/rest/dispatch.ts";
import { ok, route } from "~/server/rest/route.ts";
import { useHttpServer } from "~/test/http-server.ts";
import { useTestApp } from "~/test/test-app.ts";
import { until } from "~/test/until.ts";
import { webhookKit } from "~/test/webhook-kit.ts";
import { isFormFile } from "./form-file.ts";
import { createUploadMemory, type UploadMemory } from "./upload-memory.ts";

const app = useTestApp();
const kit = webhookKit(app);
let served: Dispatcher;
const server = useHttpServer(() => served);

const KIB = 1024;
const BOUNDARY = "guildhall-test-boundary";
const FILE_PART = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files[0]"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const FORM_END = `\r\n--${BOUNDARY}--\r\n`;
const MULTIPART = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };

/** Takes any form or JSON up to 64 KiB, or as much as `uploadMemory` lets it; answers the size of its files. */
const upload = route({
  method: "POST",
  path: "/upload",
  auth: "none",
  form: "or-json",
  maxBodyBytes: 64 * KIB,
  body: z.unknown(),
  handler: ({ body }) =>
    Promise.resolve(ok({ size: Object.values(body as object).reduce((sum: number, value) => sum + (isFormFile(value) ? value.length : 0), 0) })),
});
const unlimited = { ...upload, path: "/upload/unlimited", maxBodyBytes: undefined };

type Answer = { status: number; headers: Record<string, unknown>; body: { code?: number; retry_after?: number } };
const open: ClientRequest[] = [];
afterEach(() => open.splice(0).forEach((req) => req.destroy()));

/** A POST whose body streams in chunks (no content-length), left open until the test writes the end: the answer, whenever it comes. */
function streamingPost(path: string, headers: Record<string, string>) {
  const req = httpRequest(server.url(`/api/v10${path}`), { method: "POST", headers });
  open.push(req);
  // The server may close the connection after answering a body it will not read.
  req.on("error", () => undefined);
  const answer = new Promise<Answer>((resolve) => {
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? (JSON.parse(text) as Answer["body"]) : {} }));
    });
  });
  let written = 0;
  const write = (data: string | Buffer) => {
    written += Buffer.byteLength(data);
    req.write(data);
  };
  return { req, answer, write, written: () => written };
}

function dispatcherWith(uploadMemory?: UploadMemory) {
  const unexpected: unknown[] = [];
  served = createDispatcher({
    db: app.db,
    limiter: createRateLimiter({ scale: 1000 }),
    routes: [upload, unlimited],
    uploadMemory,
    log: (e) => unexpected.push(e),
  });
  return unexpected;
}

describe("request bodies", () => {
  it("are not read before a webhook's token is checked: a wrong one is answered while the upload is still coming", async () => {
    const { api, text } = await kit.setup();
    const hook = await kit.webhook(api, text.id);
    served = app.handler;
    for (const [path, code] of [
      [`/webhooks/${hook.id}/${"x".repeat(68)}`, 50027],
      [`/webhooks/1234567890/${hook.token}`, 10015],
    ] as const) {
      const upload = streamingPost(path, MULTIPART);
      upload.write(FILE_PART);
      upload.write(Buffer.alloc(512 * KIB));
      const answer = await upload.answer;
      expect([answer.status, answer.body.code]).toEqual([code === 10015 ? 404 : 401, code]);
      // Never ended: the answer could not have waited for the body.
      expect(upload.req.writableEnded).toBe(false);
    }
  });

  it("are refused with 413 as soon as more than the route takes has streamed in, form or JSON", async () => {
    const unexpected = dispatcherWith();
    const form = streamingPost("/upload", MULTIPART);
    form.write(FILE_PART);
    for (let i = 0; i < 8; i++) form.write(Buffer.alloc(16 * KIB));
    expect(await form.answer).toMatchObject({ status: 413, body: { code: 40005 } });
    expect(form.req.writableEnded).toBe(false);

    const json = streamingPost("/upload", { "content-type": "application/json" });
    json.write(`{"content":"${"x".repeat(100 * KIB)}`);
    expect(await json.answer).toMatchObject({ status: 413, body: { code: 40005 } });

    const small = streamingPost("/upload", MULTIPART);
    small.write(FILE_PART);
    small.write(Buffer.alloc(32 * KIB));
    small.req.end(FORM_END);
    expect(await small.answer).toMatchObject({ status: 200, body: { size: 32 * KIB } });
    expect(unexpected).toEqual([]);
  });

  it("held at once are bounded: past the bound an upload is refused at once (429, or 413 when it alone is larger), and what one held is freed when it ends, fails or breaks off", async () => {
    const memory = createUploadMemory(1024 * KIB);
    const unexpected = dispatcherWith(memory);

    const first = streamingPost("/upload/unlimited", MULTIPART);
    first.write(FILE_PART);
    first.write(Buffer.alloc(700 * KIB));
    await until(() => Promise.resolve(memory.inUse() === first.written()));

    const second = streamingPost("/upload/unlimited", MULTIPART);
    second.write(FILE_PART);
    second.write(Buffer.alloc(700 * KIB));
    const busy = await second.answer;
    expect(busy.status).toBe(429);
    expect(busy.headers["retry-after"]).toBe("1");
    expect(busy.body).toMatchObject({ retry_after: 1, global: false });
    expect(memory.inUse()).toBe(first.written());

    first.req.end(FORM_END);
    expect(await first.answer).toMatchObject({ status: 200, body: { size: 700 * KIB } });
    expect(memory.inUse()).toBe(0);

    const tooLarge = streamingPost("/upload/unlimited", MULTIPART);
    tooLarge.write(FILE_PART);
    tooLarge.write(Buffer.alloc(1100 * KIB));
    expect(await tooLarge.answer).toMatchObject({ status: 413, body: { code: 40005 } });
    expect(memory.inUse()).toBe(0);

    const abandoned = streamingPost("/upload/unlimited", MULTIPART);
    abandoned.write(FILE_PART);
    abandoned.write(Buffer.alloc(300 * KIB));
    await until(() => Promise.resolve(memory.inUse() === abandoned.written()));
    abandoned.req.destroy();
    await until(() => Promise.resolve(memory.inUse() === 0));
    expect(unexpected).toEqual([]);
  });
});
