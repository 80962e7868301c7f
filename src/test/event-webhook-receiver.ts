import { verify, type KeyObject } from "node:crypto";
import { verifyKeyObject } from "~/server/applications/application-keys.ts";
import type { HttpResponse } from "~/server/http/http-types.ts";
import { useHttpServer } from "./http-server.ts";

/** How the receiver answers: as the platform asks (204, 401 on a bad signature), or in one of the ways a URL fails. */
export type ReceiverAnswer = "acknowledge" | "fail" | "ignore-signatures" | "redirect" | "hang";

/** A request the receiver got, with whether its signature held against the application's verify key. */
type ReceivedWebhook = {
  path: string;
  body: { version: number; application_id: string; type: number; event?: any };
  isSigned: boolean;
  userAgent: string | null;
};

/**
 * An event webhooks receiver on this machine for a test file: it checks every request's
 * X-Signature-Ed25519 over X-Signature-Timestamp + body with the verify key of the application
 * the body names (`trust` it first), answers as set by `answer`, and records what came.
 */
export function useEventWebhookReceiver() {
  const keys = new Map<string, KeyObject>();
  let answer: ReceiverAnswer = "acknowledge";
  const received: ReceivedWebhook[] = [];
  const server = useHttpServer(() => async (request): Promise<HttpResponse> => {
    const chunks: Uint8Array[] = [];
    for await (const chunk of request.stream()) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString("utf8");
    const body = JSON.parse(text) as ReceivedWebhook["body"];
    const key = keys.get(body.application_id);
    const signature = request.header("x-signature-ed25519") ?? "";
    const timestamp = request.header("x-signature-timestamp") ?? "";
    const isSigned = !!key && /^[0-9a-f]{128}$/.test(signature) && verify(null, Buffer.from(timestamp + text), key, Buffer.from(signature, "hex"));
    received.push({ path: request.url, body, isSigned, userAgent: request.header("user-agent") });
    // Longer than the sender waits (3 seconds), then an answer nobody reads.
    if (answer === "hang") await new Promise((resolve) => setTimeout(resolve, 3_500));
    if (!isSigned && answer !== "ignore-signatures") return { status: 401, headers: {}, body: "invalid request signature" };
    if (answer === "fail") return { status: 500, headers: {}, body: "down" };
    if (answer === "redirect") return { status: 307, headers: { location: server.url("/elsewhere") }, body: null };
    return { status: 204, headers: {}, body: null };
  });
  return {
    url: (path = "/events") => server.url(path),
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
  };
}
