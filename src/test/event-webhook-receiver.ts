import { verify, type KeyObject } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { verifyKeyObject } from "~/server/applications/application-keys.ts";
import { makeBot } from "./factories.ts";
import { bot } from "./rest-client.ts";
import type { TestApp } from "./test-app.ts";

/**
 * How the receiver answers: as the platform asks (204, 401 on a bad signature), in one of the
 * ways a URL fails, or `flood`: a signed request is answered 200 with a 24 MiB body.
 */
export type ReceiverAnswer = "acknowledge" | "fail" | "ignore-signatures" | "redirect" | "hang" | "flood";

/** A request the receiver got, with whether its signature held against the application's verify key. */
type ReceivedWebhook = {
  path: string;
  body: { version: number; application_id: string; type: number; event?: any };
  isSigned: boolean;
  userAgent: string | null;
  host: string | null;
};

/** A flood as the receiver saw it go: bytes written, whether all of it went out, and whether its connection has closed. */
type Flood = { bytesWritten: number; isFinished: boolean; isClosed: boolean };

export const FLOOD_BYTES = 24 * 1024 * 1024;
const FLOOD_CHUNK = Buffer.alloc(64 * 1024, "x");

/** Writes FLOOD_BYTES with backpressure until done or until the client goes away. */
function flood(response: ServerResponse, seen: Flood): void {
  response.writeHead(200, { "content-type": "text/plain", "content-length": String(FLOOD_BYTES) });
  response.on("close", () => {
    seen.isClosed = true;
  });
  response.on("finish", () => {
    seen.isFinished = true;
  });
  const writeMore = () => {
    while (seen.bytesWritten < FLOOD_BYTES && !response.destroyed) {
      seen.bytesWritten += FLOOD_CHUNK.length;
      if (seen.bytesWritten >= FLOOD_BYTES) response.end(FLOOD_CHUNK);
      else if (!response.write(FLOOD_CHUNK)) return void response.once("drain", writeMore);
    }
  };
  writeMore();
}

/**
 * An event webhooks receiver on loopback (127.0.0.1) for a test file: it checks every
 * request's X-Signature-Ed25519 over X-Signature-Timestamp + body with the verify key of the
 * application the body names (`trust` it first), answers as set by `answer`, and records what
 * came (and each flood it sent).
 */
export function useEventWebhookReceiver() {
  const keys = new Map<string, KeyObject>();
  let answer: ReceiverAnswer = "acknowledge";
  const received: ReceivedWebhook[] = [];
  const floods: Flood[] = [];
  let server: Server;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const body = JSON.parse(text) as ReceivedWebhook["body"];
        const key = keys.get(body.application_id);
        const signature = String(request.headers["x-signature-ed25519"] ?? "");
        const timestamp = String(request.headers["x-signature-timestamp"] ?? "");
        const isSigned = !!key && /^[0-9a-f]{128}$/.test(signature) && verify(null, Buffer.from(timestamp + text), key, Buffer.from(signature, "hex"));
        received.push({ path: request.url ?? "", body, isSigned, userAgent: request.headers["user-agent"] ?? null, host: request.headers.host ?? null });
        const current = answer;
        // Longer than the sender waits (3 seconds), then an answer nobody reads.
        const delay = current === "hang" ? 3_500 : 0;
        setTimeout(() => {
          if (response.destroyed) return;
          if (!isSigned && current !== "ignore-signatures") return void response.writeHead(401).end("invalid request signature");
          if (current === "fail") return void response.writeHead(500).end("down");
          if (current === "redirect") return void response.writeHead(307, { location: url("/elsewhere") }).end();
          if (current === "flood") {
            const seen: Flood = { bytesWritten: 0, isFinished: false, isClosed: false };
            floods.push(seen);
            return flood(response, seen);
          }
          response.writeHead(204).end();
        }, delay);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const port = () => (server.address() as AddressInfo).port;
  const url = (path = "/events") => `http://127.0.0.1:${port()}${path}`;
  return {
    url,
    port,
    /** Verifies this application's requests with its verify key. */
    trust(applicationId: string, verifyKey: string) {
      keys.set(applicationId, verifyKeyObject(verifyKey));
    },
    answer(next: ReceiverAnswer) {
      answer = next;
    },
    /** What came for one application, oldest first. */
    receivedFor(applicationId: string) {
      return received.filter((request) => request.body.application_id === applicationId);
    },
    /** The floods sent so far, oldest first. */
    floods: () => floods,
  };
}

/** A new bot application whose PINGs `receiver` acknowledges (it trusts the application's key), with its bot's REST client. */
export async function trustedApplication(app: TestApp, receiver: ReturnType<typeof useEventWebhookReceiver>) {
  receiver.answer("acknowledge");
  const made = await makeBot(app.db);
  const { verifyKey } = await app.db.application.findUniqueOrThrow({ where: { id: made.application.id }, select: { verifyKey: true } });
  receiver.trust(made.application.id, verifyKey!);
  return { ...made, api: app.as(bot(made.token)) };
}
