// One signed POST to an application's event webhooks URL, as the platform sends them: a JSON
// body, X-Signature-Ed25519 (hex) over timestamp + body, X-Signature-Timestamp (Unix seconds).
// Redirects are never followed (the owner's URL is the only place events go) and an answer
// must come within the platform's 3 seconds.
import { ApplicationWebhookType, type APIWebhookEvent } from "discord-api-types/v10";
import { env } from "~/env.ts";
import { signWithApplicationKey } from "~/server/applications/application-keys.ts";

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

/**
 * POSTs `body` to `url` signed with the application's key (or with `signature` instead: the
 * PING's check that the receiver refuses a forged request). Answers the HTTP status when an
 * answer came, and why the attempt counts as failed when it does.
 */
export async function postSigned(
  url: string,
  body: string,
  signingKey: string,
  options: { timeoutMs?: number; signature?: string } = {},
): Promise<{ status: number | null; error: string | null; text: string }> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = options.signature ?? signWithApplicationKey(signingKey, timestamp, body);
  try {
    const response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? EVENT_WEBHOOK_TIMEOUT_MS),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": userAgent(),
        "X-Signature-Ed25519": signature,
        "X-Signature-Timestamp": timestamp,
      },
      body,
    });
    const text = await response.text();
    if (response.status >= 300 && response.status < 400) return { status: response.status, error: "Redirects are not followed.", text };
    return { status: response.status, error: response.ok ? null : `Answered ${response.status}.`, text };
  } catch (error) {
    return { status: null, error: describeFetchError(error), text: "" };
  }
}

/** Why no answer came, in words for the delivery log. */
function describeFetchError(error: unknown): string {
  if (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `No answer within ${EVENT_WEBHOOK_TIMEOUT_MS / 1000} seconds.`;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === "string") return `Could not connect (${code}).`;
  return `Could not connect (${cause instanceof Error ? cause.message : String(cause)}).`;
}

/**
 * Verifies a URL as the platform does before accepting it: a signed PING must be answered 204
 * with an empty body, and the same PING with a wrong signature must be refused with 401, so
 * the receiver is known to check signatures. Returns why the URL is refused, or null.
 */
export async function verifyEventWebhooksUrl(url: string, applicationId: string, signingKey: string): Promise<string | null> {
  const body = pingBody(applicationId);
  const ping = await postSigned(url, body, signingKey);
  if (ping.status === null) return `The PING got no answer: ${ping.error}`;
  if (ping.status !== 204 || ping.text.length > 0)
    return `The PING was answered ${ping.status}${ping.text ? " with a body" : ""}; a 204 with an empty body is expected.`;
  const forged = await postSigned(url, body, signingKey, { signature: "0".repeat(128) });
  if (forged.status !== 401) {
    return `A PING with an invalid signature was answered ${forged.status ?? "with nothing"}; it must be refused with 401 (verify X-Signature-Ed25519).`;
  }
  return null;
}
