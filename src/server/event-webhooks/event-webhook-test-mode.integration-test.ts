import { afterAll, beforeAll, expect, it } from "vitest";
import type { TwinServer } from "~/server/twin/twin-server.ts";
import { useEventWebhookReceiver } from "~/test/event-webhook-receiver.ts";
import { startTestTwin } from "~/test/twin-kit.ts";
import { EVENT_WEBHOOKS_URL_UNVERIFIED } from "./event-webhook-settings.ts";

// A twin (test mode on), over real HTTP: a bot's tests run their event webhooks receiver on the
// same machine, so loopback is allowed there, and only loopback.

let twin: TwinServer;
const receiver = useEventWebhookReceiver();

beforeAll(async () => {
  twin = await startTestTwin();
  const me = (await (await patch({})).json()) as { verify_key: string };
  receiver.trust(twin.info.application_id, me.verify_key);
});

afterAll(() => twin.stop());

/** PATCH /applications/@me as the twin's bot. */
function patch(body: object): Promise<Response> {
  return fetch(`${twin.info.base_url}/v10/applications/@me`, {
    method: "PATCH",
    headers: { authorization: `Bot ${twin.info.bot_token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

it("accepts a receiver on loopback, by address or by a name that resolves there, after its PING", async () => {
  for (const url of [receiver.url(), `http://localhost:${receiver.port()}/events`, `http://[::ffff:127.0.0.1]:${receiver.port()}/events`]) {
    const saved = await patch({ event_webhooks_url: url, event_webhooks_status: 2 });
    expect(saved.status, url).toBe(200);
    expect(await saved.json()).toMatchObject({ event_webhooks_url: url, event_webhooks_status: 2 });
  }
  // Two PINGs (signed, then forged) per URL.
  expect(receiver.receivedFor(twin.info.application_id).map((request) => [request.body.type, request.isSigned])).toEqual(
    Array.from({ length: 3 }, () => [
      [0, true],
      [0, false],
    ]).flat(),
  );
});

it("still refuses private, link-local and unspecified addresses, with the one field error", async () => {
  const before = receiver.receivedFor(twin.info.application_id).length;
  for (const host of ["10.0.0.1", "169.254.169.254", "0.0.0.0", "[fc00::1]"]) {
    const refused = await patch({ event_webhooks_url: `http://${host}:${receiver.port()}/events` });
    expect(refused.status, host).toBe(400);
    expect(((await refused.json()) as { errors: unknown }).errors, host).toEqual({
      event_webhooks_url: { _errors: [{ code: "APPLICATION_EVENT_WEBHOOKS_URL_INVALID", message: EVENT_WEBHOOKS_URL_UNVERIFIED }] },
    });
  }
  expect(receiver.receivedFor(twin.info.application_id)).toHaveLength(before);
});
