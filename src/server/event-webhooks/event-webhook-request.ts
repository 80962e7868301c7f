// One signed POST to an application's event webhooks URL, as the platform sends them: a JSON
// body, X-Signature-Ed25519 (hex) over timestamp + body, X-Signature-Timestamp (Unix seconds).
// Redirects are never followed (the owner's URL is the only place events go), an answer must
// come within the platform's 3 seconds, and only public addresses (or what the operator
// allows) are reached: event-webhook-destination.ts.
import { ApplicationWebhookType, type APIWebhookEvent } from "discord-api-types/v10";
import { env } from "~/env.ts";
import { signWithApplicationKey } from "~/server/applications/application-keys.ts";
import { postToDestination, resolveDestination, type Destination, type EventWebhookDestinations } from "./event-webhook-destination.ts";

/** The platform expects an answer within 3 seconds. */
export const EVENT_WEBHOOK_TIMEOUT_MS = 3_000;

function userAgent(): string {
  return `Guildhall-Webhook-Events/1.0 (+${env().PUBLIC_BASE_URL})`;
}

/** The PING body that verifies a URL (type 0, no event). */
function pingBody(applicationId: string): string {
  const ping = { version: 1, application_id: applicationId, type: ApplicationWebhookType.Ping } satisfies Omit<APIWebhookEvent, "event">;
  return JSON.stringify(ping);
}

/** An event's body (type 1) around its stored event body object. */
export function eventBody(applicationId: string, event: string): string {
  return `{"version":1,"application_id":${JSON.stringify(applicationId)},"type":${ApplicationWebhookType.Event},"event":${event}}`;
}

/** Why an attempt got no answer, whatever the cause: a caller must not learn whether the address was refused, closed, or slow. */
export const DELIVERY_NO_ANSWER = `No answer: the URL could not be reached from here, or did not answer within ${EVENT_WEBHOOK_TIMEOUT_MS / 1000} seconds.`;

/**
 * POSTs `body` to a checked destination, signed with the application's key (or with
 * `signature` instead: the PING's check that the receiver refuses a forged request), within
 * `signal` (the platform's 3 seconds by default). Answers null when no answer came.
 */
function postSigned(destination: Destination, body: string, signingKey: string, options: { signal?: AbortSignal; signature?: string } = {}) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = options.signature ?? signWithApplicationKey(signingKey, timestamp, body);
  return postToDestination(destination, {
    headers: {
      "Content-Type": "application/json",
      "User-Agent": userAgent(),
      "X-Signature-Ed25519": signature,
      "X-Signature-Timestamp": timestamp,
    },
    body,
    signal: options.signal ?? AbortSignal.timeout(EVENT_WEBHOOK_TIMEOUT_MS),
  });
}

/**
 * Sends one event's body to `url` as it resolves now (DNS may have changed since the URL was
 * saved, so it is checked again): the status when an answer came, and why the attempt counts
 * as failed when it does, for the delivery log.
 */
export async function sendEventWebhook(
  url: string,
  body: string,
  signingKey: string,
  destinations: EventWebhookDestinations,
): Promise<{ status: number | null; error: string | null }> {
  // The platform's 3 seconds hold for the whole attempt, resolving the name included.
  const signal = AbortSignal.timeout(EVENT_WEBHOOK_TIMEOUT_MS);
  const destination = await resolveDestination(url, destinations, signal);
  const answer = destination && (await postSigned(destination, body, signingKey, { signal }));
  if (!answer) return { status: null, error: DELIVERY_NO_ANSWER };
  if (answer.status >= 300 && answer.status < 400) return { status: answer.status, error: "Redirects are not followed." };
  return { status: answer.status, error: answer.status >= 200 && answer.status < 300 ? null : `Answered ${answer.status}.` };
}

/**
 * Verifies a URL as the platform does before accepting it: a signed PING must be answered 204
 * with an empty body, and the same PING with a wrong signature must be refused with 401, so
 * the receiver is known to check signatures. Both go to the one address the name resolved to
 * and passed the destination rules. Answers only whether it passed: why it did not (a refused
 * address, no such name, a closed port, a wrong answer) would tell an owner what is behind an
 * address they cannot reach themselves.
 */
export async function verifyEventWebhooksUrl(url: string, applicationId: string, signingKey: string, destinations: EventWebhookDestinations): Promise<boolean> {
  const body = pingBody(applicationId);
  const signal = AbortSignal.timeout(EVENT_WEBHOOK_TIMEOUT_MS);
  const destination = await resolveDestination(url, destinations, signal);
  if (!destination) return false;
  const ping = await postSigned(destination, body, signingKey, { signal });
  if (ping?.status !== 204 || ping.bodyBytes > 0) return false;
  const forged = await postSigned(destination, body, signingKey, { signature: "0".repeat(128) });
  return forged?.status === 401;
}
