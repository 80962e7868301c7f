import { describe, expect, it } from "vitest";
import { applicationKeys } from "~/server/applications/application-keys.ts";
import { runChange } from "~/server/events/change.ts";
import { InternalEvents } from "~/server/events/event-map.ts";
import { recordAuthorization } from "~/server/oauth2/grants.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { trustedApplication, useEventWebhookReceiver } from "~/test/event-webhook-receiver.ts";
import { makeUser } from "~/test/factories.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createEventWebhookDestinations } from "./event-webhook-destination.ts";
import { runEventWebhooks } from "./event-webhook-jobs.ts";
import { DELIVERY_NO_ANSWER, eventBody, sendEventWebhook, verifyEventWebhooksUrl } from "./event-webhook-request.ts";
import { EVENT_WEBHOOKS_URL_UNVERIFIED } from "./event-webhook-settings.ts";

// Production as it starts: test mode off, no EVENT_WEBHOOK_ALLOWED_HOSTS. The receiver listens
// on loopback and would acknowledge every PING, so anything it receives is a request that
// should never have been made.
const app = useTestApp();
const receiver = useEventWebhookReceiver();

const application = () => trustedApplication(app, receiver);

const REFUSED_FIELD = { event_webhooks_url: { _errors: [{ code: "APPLICATION_EVENT_WEBHOOKS_URL_INVALID", message: EVENT_WEBHOOKS_URL_UNVERIFIED }] } };

describe("event webhook URLs with test mode off", () => {
  it("refuses the receiver at every form of a loopback or special address, with the one field error, and contacts nothing", async () => {
    const { application: made, api } = await application();
    const port = receiver.port();
    const hosts = [
      "127.0.0.1",
      "localhost",
      "0.0.0.0",
      "2130706433",
      "0x7f000001",
      "127.1",
      "[::ffff:127.0.0.1]",
      "[::1]",
      "[::127.0.0.1]",
      "[64:ff9b::127.0.0.1]",
      "169.254.169.254",
      "10.0.0.1",
      "[fc00::1]",
    ];
    for (const host of hosts) {
      const refused = await api.patch("/applications/@me", { event_webhooks_url: `http://${host}:${port}/events`, event_webhooks_status: 2 });
      expect(refused.status, host).toBe(400);
      expect(refused.body, host).toEqual({ code: 50035, message: "Invalid Form Body", errors: REFUSED_FIELD });
    }
    // A closed port on loopback answers the same as the open one.
    const closed = await api.patch("/applications/@me", { event_webhooks_url: "http://127.0.0.1:9/events" });
    expect(closed.body.errors).toEqual(REFUSED_FIELD);
    expect(receiver.receivedFor(made.id)).toEqual([]);
    const row = await app.db.application.findUniqueOrThrow({ where: { id: made.id } });
    expect(row).toMatchObject({ eventWebhooksUrl: null, eventWebhooksStatus: 1 });
  });

  it("refuses them from the dashboard by the same rule", async () => {
    const { user } = await makeUser(app.db);
    const caller = createCaller({ db: app.db, userId: user.id });
    const { application: made } = await caller.application.create({ name: "Inward" });
    const { verifyKey } = await app.db.application.findUniqueOrThrow({ where: { id: made.id } });
    receiver.trust(made.id, verifyKey!);
    await expect(caller.application.eventWebhooks.change({ applicationId: made.id, body: { event_webhooks_url: receiver.url() } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { errors: REFUSED_FIELD },
    });
    expect(receiver.receivedFor(made.id)).toEqual([]);
  });

  it("checks a saved URL again when each delivery is sent: one whose name now resolves to loopback gets nothing", async () => {
    const { application: made } = await application();
    // As if the URL was verified while `localhost`'s owner pointed it at a public address.
    await runChange({ db: app.db, actor: null }, async ({ tx, emit }) => {
      await tx.application.update({
        where: { id: made.id },
        data: { eventWebhooksUrl: `http://localhost:${receiver.port()}/events`, eventWebhooksStatus: 2, eventWebhooksTypes: '["APPLICATION_AUTHORIZED"]' },
      });
      await emit(InternalEvents.ApplicationUpdated, { application_id: made.id });
    });
    const { user } = await makeUser(app.db);
    await runChange({ db: app.db, actor: null }, (change) => recordAuthorization(change, { applicationId: made.id, userId: user.id, scopes: ["identify"] }));
    await runEventWebhooks(app.db);
    const [delivery, ...rest] = await app.db.eventWebhookDelivery.findMany({ where: { applicationId: made.id } });
    expect(rest).toEqual([]);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastHttpStatus: null, lastError: DELIVERY_NO_ANSWER });
    expect(receiver.receivedFor(made.id)).toEqual([]);
  });
});

describe("the connection goes to the address that was checked", () => {
  /**
   * A name only this resolver knows, allowed at 127.0.0.1 (the receiver) by the operator's
   * list: its first answer is 127.0.0.1, every later one 127.0.0.2 (refused, and nothing
   * listens there). A request made after a second lookup, or through the system's resolver,
   * could not reach the receiver.
   */
  function rebinding() {
    const lookups: string[] = [];
    const destinations = createEventWebhookDestinations({
      allowedHosts: "127.0.0.1",
      allowLoopback: false,
      lookup: (hostname) => {
        lookups.push(hostname);
        return Promise.resolve([{ address: lookups.length === 1 ? "127.0.0.1" : "127.0.0.2" }]);
      },
    });
    return { lookups, destinations };
  }

  it("a PING and its forged twin go to the one address the name resolved to, with the URL's Host", async () => {
    const { application: made } = await application();
    const { signingKey } = await applicationKeys(app.db, made.id);
    const { lookups, destinations } = rebinding();
    const url = `http://hooks.rebinding.test:${receiver.port()}/events`;
    expect(await verifyEventWebhooksUrl(url, made.id, signingKey, destinations)).toBe(true);
    expect(lookups).toEqual(["hooks.rebinding.test"]);
    expect(receiver.receivedFor(made.id).map((request) => [request.host, request.isSigned])).toEqual([
      [`hooks.rebinding.test:${receiver.port()}`, true],
      [`hooks.rebinding.test:${receiver.port()}`, false],
    ]);
  });

  it("a delivery resolves and checks the name again, and a name that moved to a refused address gets nothing", async () => {
    const { application: made } = await application();
    const { signingKey } = await applicationKeys(app.db, made.id);
    const { lookups, destinations } = rebinding();
    const url = `http://hooks.rebinding.test:${receiver.port()}/events`;
    const body = eventBody(made.id, '{"type":"APPLICATION_AUTHORIZED","timestamp":"2025-01-01T00:00:00.000Z","data":{}}');
    expect(await sendEventWebhook(url, body, signingKey, destinations)).toEqual({ status: 204, error: null });
    expect(await sendEventWebhook(url, body, signingKey, destinations)).toEqual({ status: null, error: DELIVERY_NO_ANSWER });
    expect(lookups).toHaveLength(2);
    expect(receiver.receivedFor(made.id)).toHaveLength(1);
  });
});
