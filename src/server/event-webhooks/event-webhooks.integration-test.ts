import { ApplicationWebhookEventType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { runChange } from "~/server/events/change.ts";
import { deleteLobbyMessage } from "~/server/lobbies/lobby-message.service.ts";
import { deauthorize, recordAuthorization } from "~/server/oauth2/grants.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { FLOOD_BYTES, trustedApplication, useEventWebhookReceiver } from "~/test/event-webhook-receiver.ts";
import { makeUser } from "~/test/factories.ts";
import { lobbyKit } from "~/test/lobby-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { until } from "~/test/until.ts";
import { createEventWebhookDestinations } from "./event-webhook-destination.ts";
import { DELIVERY_LOG_DAYS, pruneDeliveryLog, runEventWebhooks } from "./event-webhook-jobs.ts";
import { DELIVERY_NO_ANSWER } from "./event-webhook-request.ts";
import { FAILING_PERIOD_MS, MAX_DELIVERY_ATTEMPTS, retryDelayMs } from "./event-webhook-rules.ts";
import { EVENT_WEBHOOKS_URL_UNVERIFIED } from "./event-webhook-settings.ts";

// The receiver runs on this machine's loopback, which production refuses: these tests allow its
// address as an operator would (EVENT_WEBHOOK_ALLOWED_HOSTS), test mode off. What is refused
// without that is event-webhook-destinations.integration-test.ts.
const app = useTestApp({ eventWebhookDestinations: createEventWebhookDestinations({ allowedHosts: "127.0.0.1", allowLoopback: false }) });
const receiver = useEventWebhookReceiver();
const kit = lobbyKit(app);

const ALL_TYPES = ["APPLICATION_AUTHORIZED", "APPLICATION_DEAUTHORIZED", "LOBBY_MESSAGE_CREATE", "LOBBY_MESSAGE_UPDATE", "LOBBY_MESSAGE_DELETE"];

const application = () => trustedApplication(app, receiver);

/** The same, with event webhooks on for `types`. */
async function subscribed(types: string[]) {
  const made = await application();
  const saved = await made.api.patch("/applications/@me", { event_webhooks_url: receiver.url(), event_webhooks_status: 2, event_webhooks_types: types });
  expect(saved.status).toBe(200);
  return made;
}

function deliveriesOf(applicationId: string) {
  return app.db.eventWebhookDelivery.findMany({ where: { applicationId }, orderBy: { eventSeq: "asc" } });
}

/** Events (type 1) the receiver got for an application, signature checked. */
function eventsFor(applicationId: string) {
  return receiver
    .receivedFor(applicationId)
    .filter((request) => request.body.type === 1)
    .map((request) => {
      expect(request.isSigned).toBe(true);
      return request.body;
    });
}

async function authorize(applicationId: string, userId: string, scopes = ["identify", "applications.commands"]) {
  await runChange({ db: app.db, actor: null }, (change) => recordAuthorization(change, { applicationId, userId, scopes }));
}

/** PATCHes `url` (with another change) and expects the one refusal, with nothing written. */
async function expectRefused(api: Awaited<ReturnType<typeof application>>["api"], applicationId: string, url: string) {
  const refused = await api.patch("/applications/@me", { description: "changed", event_webhooks_url: url, event_webhooks_status: 2 });
  expect(refused.status).toBe(400);
  expect(refused.body).toEqual({
    code: 50035,
    message: "Invalid Form Body",
    errors: { event_webhooks_url: { _errors: [{ code: "APPLICATION_EVENT_WEBHOOKS_URL_INVALID", message: EVENT_WEBHOOKS_URL_UNVERIFIED }] } },
  });
  const row = await app.db.application.findUniqueOrThrow({ where: { id: applicationId } });
  expect(row).toMatchObject({ description: "", eventWebhooksUrl: null, eventWebhooksStatus: 1 });
}

describe("event webhook settings on /applications/@me", () => {
  it("verifies a URL with a signed PING, then answers the settings on GET and PATCH", async () => {
    const { application: made, api } = await application();
    const before = await api.get("/applications/@me");
    expect(before.body).toMatchObject({ event_webhooks_url: null, event_webhooks_status: 1, event_webhooks_types: [] });

    const saved = await api.patch("/applications/@me", {
      event_webhooks_url: receiver.url(),
      event_webhooks_status: 2,
      event_webhooks_types: ["APPLICATION_AUTHORIZED", "LOBBY_MESSAGE_CREATE"],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      event_webhooks_url: receiver.url(),
      event_webhooks_status: 2,
      event_webhooks_types: ["APPLICATION_AUTHORIZED", "LOBBY_MESSAGE_CREATE"],
    });
    expect((await api.get("/applications/@me")).body).toMatchObject({ event_webhooks_url: receiver.url(), event_webhooks_status: 2 });

    // A signed PING the receiver accepted, then the same with a forged signature, which it refused.
    const [ping, forged] = receiver.receivedFor(made.id);
    expect(ping).toMatchObject({ isSigned: true, body: { version: 1, application_id: made.id, type: 0 } });
    expect(ping!.body).not.toHaveProperty("event");
    expect(ping!.userAgent).toMatch(/^Guildhall-Webhook-Events\//);
    expect(forged).toMatchObject({ isSigned: false, body: { type: 0 } });

    // Changing only the types sends no PING.
    await api.patch("/applications/@me", { event_webhooks_types: ["APPLICATION_DEAUTHORIZED"] });
    expect(receiver.receivedFor(made.id)).toHaveLength(2);
  });

  // One answer whatever went wrong, so the PING tells nobody what listens where.
  it.each([
    ["answers 500", "fail"],
    ["accepts a forged signature", "ignore-signatures"],
    ["redirects", "redirect"],
    ["does not answer within 3 seconds", "hang"],
  ] as const)("refuses a URL that %s, with the one field error and nothing written", async (_, answer) => {
    const { application: made, api } = await application();
    receiver.answer(answer);
    await expectRefused(api, made.id, receiver.url());
    expect(receiver.receivedFor(made.id).length).toBeGreaterThan(0);
  });

  it("refuses a URL where nothing listens, or whose name does not resolve, with the same field error", async () => {
    const { application: made, api } = await application();
    await expectRefused(api, made.id, "http://127.0.0.1:9/events");
    await expectRefused(api, made.id, "http://no-such-host.invalid/events");
  });

  it("refuses a URL that is not http(s), and enabling without a URL", async () => {
    const { api } = await application();
    const ftp = await api.patch("/applications/@me", { event_webhooks_url: "ftp://127.0.0.1/events" });
    expect(ftp.status).toBe(400);
    expect(ftp.body.errors.event_webhooks_url).toBeDefined();
    const noUrl = await api.patch("/applications/@me", { event_webhooks_status: 2 });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.errors.event_webhooks_status._errors[0].code).toBe("APPLICATION_EVENT_WEBHOOKS_URL_REQUIRED");
    const unknownType = await api.patch("/applications/@me", { event_webhooks_types: ["ENTITLEMENT_CREATE"] });
    expect(unknownType.status).toBe(400);
  });

  it("removing the URL disables event webhooks", async () => {
    const { api } = await subscribed(ALL_TYPES);
    const cleared = await api.patch("/applications/@me", { event_webhooks_url: null });
    expect(cleared.body).toMatchObject({ event_webhooks_url: null, event_webhooks_status: 1 });
  });
});

describe("delivering events", () => {
  it("sends APPLICATION_AUTHORIZED and APPLICATION_DEAUTHORIZED, signed, once each", async () => {
    const { application: made } = await subscribed(ALL_TYPES);
    const { user } = await makeUser(app.db);
    await authorize(made.id, user.id);
    await deauthorize({ db: app.db, actor: null }, { applicationId: made.id, userId: user.id });
    await runEventWebhooks(app.db);
    await runEventWebhooks(app.db);

    const [authorized, deauthorized, ...rest] = eventsFor(made.id);
    expect(rest).toEqual([]);
    expect(authorized).toMatchObject({
      version: 1,
      application_id: made.id,
      type: 1,
      event: { type: "APPLICATION_AUTHORIZED", data: { integration_type: 1, scopes: ["identify", "applications.commands"], user: { id: user.id } } },
    });
    expect(Date.parse(authorized!.event.timestamp)).not.toBeNaN();
    expect(authorized!.event.data).not.toHaveProperty("application_id");
    expect(deauthorized).toMatchObject({ type: 1, event: { type: "APPLICATION_DEAUTHORIZED", data: { user: { id: user.id } } } });
    expect((await deliveriesOf(made.id)).map((row) => [row.eventType, row.status, row.attempts, row.lastHttpStatus])).toEqual([
      ["APPLICATION_AUTHORIZED", "delivered", 1, 204],
      ["APPLICATION_DEAUTHORIZED", "delivered", 1, 204],
    ]);
  });

  it("sends a lobby's message events to the lobby's application, and only the types it subscribed to", async () => {
    const game = await kit.game(1);
    receiver.trust(game.application.id, (await app.db.application.findUniqueOrThrow({ where: { id: game.application.id } })).verifyKey!);
    receiver.answer("acknowledge");
    const saved = await game.server.patch("/applications/@me", {
      event_webhooks_url: receiver.url(),
      event_webhooks_status: 2,
      event_webhooks_types: ["LOBBY_MESSAGE_CREATE", "LOBBY_MESSAGE_DELETE"],
    });
    expect(saved.status).toBe(200);
    const [player] = game.players;
    const lobby = await kit.lobby(game.server, { members: [{ id: player!.user.id }] });
    const sent = await player!.api.post(`/lobbies/${lobby.id}/messages`, { content: "gl hf" });
    expect(sent.status).toBe(200);
    // An update (not subscribed), then the message is deleted: that event names only its lobby.
    expect((await game.server.put(`/lobbies/${lobby.id}/messages/${sent.body.id}/moderation-metadata`, { flagged: "no" })).status).toBe(204);
    await deleteLobbyMessage({ db: app.db, actor: game.actor }, { lobbyId: lobby.id, messageId: sent.body.id });
    await authorize(game.application.id, player!.user.id);
    await runEventWebhooks(app.db);

    const events = eventsFor(game.application.id);
    expect(events.map((body) => body.event.type)).toEqual(["LOBBY_MESSAGE_CREATE", "LOBBY_MESSAGE_DELETE"]);
    expect(events[0]!.event.data).toMatchObject({ id: sent.body.id, content: "gl hf", lobby_id: lobby.id, author: { id: player!.user.id } });
    expect(events[1]!.event.data).toEqual({ id: sent.body.id, lobby_id: lobby.id });
  });

  it("retries a failing receiver with exponential backoff until it answers", async () => {
    const { application: made } = await subscribed(ALL_TYPES);
    receiver.answer("fail");
    const { user } = await makeUser(app.db);
    await authorize(made.id, user.id);
    const start = Date.now();
    await runEventWebhooks(app.db, new Date(start));
    let [row] = await deliveriesOf(made.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastHttpStatus: 500, lastError: "Answered 500." });
    expect(row!.nextAttemptAt!.getTime()).toBe(start + retryDelayMs(1));

    // Not due yet: nothing is sent.
    await runEventWebhooks(app.db, new Date(start + retryDelayMs(1) - 1));
    expect(eventsFor(made.id)).toHaveLength(1);
    await runEventWebhooks(app.db, new Date(start + retryDelayMs(1)));
    [row] = await deliveriesOf(made.id);
    expect(row).toMatchObject({ status: "pending", attempts: 2 });
    // 10 s after the first failure, then 20 s, then 40 s: the wait doubles.
    expect(row!.nextAttemptAt!.getTime()).toBe(start + 10_000 + 20_000);
    await runEventWebhooks(app.db, row!.nextAttemptAt!);
    [row] = await deliveriesOf(made.id);
    expect(row).toMatchObject({ status: "pending", attempts: 3 });
    expect(row!.nextAttemptAt!.getTime()).toBe(start + 10_000 + 20_000 + 40_000);

    receiver.answer("acknowledge");
    await runEventWebhooks(app.db, row!.nextAttemptAt!);
    [row] = await deliveriesOf(made.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 4, lastHttpStatus: 204, lastError: null, nextAttemptAt: null });
    expect(eventsFor(made.id)).toHaveLength(4);
  });

  it("counts a receiver that does not answer within 3 seconds as a failed attempt", async () => {
    const { application: made } = await subscribed(ALL_TYPES);
    receiver.answer("hang");
    const { user } = await makeUser(app.db);
    await authorize(made.id, user.id);
    await runEventWebhooks(app.db);
    expect((await deliveriesOf(made.id))[0]).toMatchObject({ status: "pending", attempts: 1, lastHttpStatus: null, lastError: DELIVERY_NO_ANSWER });
  });

  it("sends a delivery once when two workers run at the same time", async () => {
    const { application: made } = await subscribed(ALL_TYPES);
    const { user } = await makeUser(app.db);
    await authorize(made.id, user.id);
    await Promise.all([runEventWebhooks(app.db), runEventWebhooks(app.db)]);
    await runEventWebhooks(app.db);
    expect(eventsFor(made.id)).toHaveLength(1);
    expect(await deliveriesOf(made.id)).toHaveLength(1);
  });

  it("a delivery whose lease lapsed (its worker stopped) is taken up again", async () => {
    const { application: made } = await subscribed(ALL_TYPES);
    const { user } = await makeUser(app.db);
    await authorize(made.id, user.id);
    const start = Date.now();
    await runEventWebhooks(app.db, new Date(start));
    const [row] = await deliveriesOf(made.id);
    // As if a worker claimed it for a second attempt and died mid-send.
    await app.db.eventWebhookDelivery.update({
      where: { id: row!.id },
      data: { status: "pending", attempts: 1, nextAttemptAt: new Date(start), leaseUntil: new Date(start + 15_000) },
    });
    await runEventWebhooks(app.db, new Date(start + 1_000));
    expect(eventsFor(made.id)).toHaveLength(1);
    await runEventWebhooks(app.db, new Date(start + 15_001));
    expect(eventsFor(made.id)).toHaveLength(2);
    expect((await deliveriesOf(made.id))[0]).toMatchObject({ status: "delivered", attempts: 2, leaseUntil: null });
  });

  it("fails a delivery after every attempt, and turns event webhooks off (3) after persistent failure until re-enabled", async () => {
    const { application: made, api } = await subscribed(ALL_TYPES);
    receiver.answer("fail");
    let now = Date.now();
    /** Runs the job until the event's delivery has used all its attempts. */
    const failOneEvent = async () => {
      const { user } = await makeUser(app.db);
      await authorize(made.id, user.id);
      for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt += 1) {
        await runEventWebhooks(app.db, new Date(now));
        now += retryDelayMs(attempt);
      }
    };
    await failOneEvent();
    const [first] = await deliveriesOf(made.id);
    expect(first).toMatchObject({ status: "failed", attempts: MAX_DELIVERY_ATTEMPTS, lastHttpStatus: 500, nextAttemptAt: null });
    await failOneEvent();
    await failOneEvent();
    // Three failed in a row, but within the first hour: a short outage keeps event webhooks on.
    expect((await api.get("/applications/@me")).body.event_webhooks_status).toBe(2);
    now += FAILING_PERIOD_MS;
    await failOneEvent();
    expect((await api.get("/applications/@me")).body.event_webhooks_status).toBe(3);

    // Off: new events make no deliveries.
    const { user } = await makeUser(app.db);
    await authorize(made.id, user.id);
    await runEventWebhooks(app.db, new Date(now));
    expect(await deliveriesOf(made.id)).toHaveLength(4);

    // The owner fixes the receiver and enables them again: a new PING, then events flow.
    receiver.answer("acknowledge");
    const enabled = await api.patch("/applications/@me", { event_webhooks_status: 2 });
    expect(enabled.body.event_webhooks_status).toBe(2);
    expect(receiver.receivedFor(made.id).at(-1)!.body.type).toBe(0);
  });

  it("sends to the URL the owner set when the delivery is sent, not when the event happened", async () => {
    const { application: made, api } = await subscribed(ALL_TYPES);
    const { user } = await makeUser(app.db);
    await authorize(made.id, user.id);
    expect((await api.patch("/applications/@me", { event_webhooks_url: receiver.url("/moved") })).status).toBe(200);
    await runEventWebhooks(app.db);
    expect(receiver.receivedFor(made.id).map((request) => [request.path, request.body.type])).toEqual([
      ["/events", 0],
      ["/events", 0],
      ["/moved", 0],
      ["/moved", 0],
      ["/moved", 1],
    ]);
  });

  it("cancels a pending delivery when event webhooks are turned off before it is sent", async () => {
    const { application: made, api } = await subscribed(ALL_TYPES);
    receiver.answer("fail");
    const { user } = await makeUser(app.db);
    await authorize(made.id, user.id);
    const start = Date.now();
    await runEventWebhooks(app.db, new Date(start));
    await api.patch("/applications/@me", { event_webhooks_status: 1 });
    await runEventWebhooks(app.db, new Date(start + retryDelayMs(1)));
    expect((await deliveriesOf(made.id))[0]).toMatchObject({ status: "cancelled", attempts: 2 });
    expect(eventsFor(made.id)).toHaveLength(1);
  });
});

describe("the delivery log's retention", () => {
  it("deletes finished deliveries older than the retention window and keeps pending ones", async () => {
    const { application: made } = await subscribed(ALL_TYPES);
    for (let i = 0; i < 2; i += 1) await authorize(made.id, (await makeUser(app.db)).user.id);
    const start = Date.now();
    receiver.answer("fail");
    await runEventWebhooks(app.db, new Date(start));
    const [first] = await deliveriesOf(made.id);
    // The first one finished long ago; the other is still being retried.
    await app.db.eventWebhookDelivery.update({ where: { id: first!.id }, data: { status: "delivered", finishedAt: new Date(start), nextAttemptAt: null } });
    await pruneDeliveryLog(app.db, new Date(start + DELIVERY_LOG_DAYS * 24 * 60 * 60_000 - 1));
    expect(await deliveriesOf(made.id)).toHaveLength(2);
    await pruneDeliveryLog(app.db, new Date(start + DELIVERY_LOG_DAYS * 24 * 60 * 60_000 + 1));
    expect((await deliveriesOf(made.id)).map((row) => row.status)).toEqual(["pending"]);
  });

  it("keeps at most the newest 1,000 finished deliveries of an application", async () => {
    const { application: made } = await application();
    const start = Date.now();
    await app.db.eventWebhookDelivery.createMany({
      data: Array.from({ length: 1_002 }, (_, i) => ({
        id: String(10n ** 17n + BigInt(i)),
        applicationId: made.id,
        eventSeq: -1 - i,
        eventType: "APPLICATION_AUTHORIZED",
        event: "{}",
        status: "delivered",
        attempts: 1,
        createdAt: new Date(start + i),
        finishedAt: new Date(start + i),
      })),
    });
    await pruneDeliveryLog(app.db, new Date(start + 1_002));
    const kept = await deliveriesOf(made.id);
    expect(kept).toHaveLength(1_000);
    expect(kept.map((row) => row.id).sort()[0]).toBe(String(10n ** 17n + 2n));
  });
});

describe("the dashboard's event webhooks section", () => {
  it("changes the settings by the same rules and lists deliveries newest first, a page at a time", async () => {
    const { user } = await makeUser(app.db);
    const caller = createCaller({ db: app.db, userId: user.id });
    const { application: made } = await caller.application.create({ name: "Hooked" });
    const { verifyKey } = await app.db.application.findUniqueOrThrow({ where: { id: made.id } });
    receiver.trust(made.id, verifyKey!);
    receiver.answer("fail");
    await expect(caller.application.eventWebhooks.change({ applicationId: made.id, body: { event_webhooks_url: receiver.url() } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { errors: { event_webhooks_url: { _errors: [{ code: "APPLICATION_EVENT_WEBHOOKS_URL_INVALID" }] } } },
    });
    receiver.answer("acknowledge");
    const settings = await caller.application.eventWebhooks.change({
      applicationId: made.id,
      body: { event_webhooks_url: receiver.url(), event_webhooks_status: 2, event_webhooks_types: [ApplicationWebhookEventType.ApplicationAuthorized] },
    });
    expect(settings).toEqual({ event_webhooks_url: receiver.url(), event_webhooks_status: 2, event_webhooks_types: ["APPLICATION_AUTHORIZED"] });
    expect(await caller.application.eventWebhooks.deliveries({ applicationId: made.id })).toEqual({ deliveries: [], nextBefore: null });

    for (let i = 0; i < 3; i += 1) await authorize(made.id, (await makeUser(app.db)).user.id);
    await runEventWebhooks(app.db);
    const page = await caller.application.eventWebhooks.deliveries({ applicationId: made.id, limit: 2 });
    expect(page.nextBefore).toBe(page.deliveries[1]!.id);
    expect(page.deliveries[0]).toMatchObject({
      eventType: "APPLICATION_AUTHORIZED",
      status: "delivered",
      attempts: 1,
      lastHttpStatus: 204,
      nextAttemptAt: null,
    });
    const rest = await caller.application.eventWebhooks.deliveries({ applicationId: made.id, limit: 2, before: page.nextBefore! });
    expect(rest).toMatchObject({ nextBefore: null, deliveries: [{}] });
    const seqs = (await deliveriesOf(made.id)).map((row) => row.id).reverse();
    expect([...page.deliveries, ...rest.deliveries].map((entry) => entry.id)).toEqual(seqs);

    // Someone else's application reads as unknown.
    const stranger = createCaller({ db: app.db, userId: (await makeUser(app.db)).user.id });
    await expect(stranger.application.eventWebhooks.deliveries({ applicationId: made.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(stranger.application.eventWebhooks.change({ applicationId: made.id, body: { event_webhooks_status: 1 } })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("answers the server does not read whole", () => {
  /** Waits until the flood the receiver sends next has closed; answers it. */
  async function nextFlood(send: () => Promise<unknown>) {
    const before = receiver.floods().length;
    await send();
    await until(() => Promise.resolve(receiver.floods()[before]?.isClosed === true));
    return receiver.floods()[before]!;
  }

  it("a PING answered with 24 MiB is refused after a few KiB: the connection is cut before the receiver finished writing", async () => {
    const { application: made, api } = await application();
    receiver.answer("flood");
    const flood = await nextFlood(() => expectRefused(api, made.id, receiver.url()));
    expect(flood.isFinished).toBe(false);
    expect(flood.bytesWritten).toBeLessThan(FLOOD_BYTES);
  });

  it("a delivery's answer is not read: 200 with 24 MiB counts as delivered, the connection cut", async () => {
    const { application: made } = await subscribed(ALL_TYPES);
    receiver.answer("flood");
    const { user } = await makeUser(app.db);
    await authorize(made.id, user.id);
    const flood = await nextFlood(() => runEventWebhooks(app.db));
    expect(flood.isFinished).toBe(false);
    expect(flood.bytesWritten).toBeLessThan(FLOOD_BYTES);
    expect((await deliveriesOf(made.id))[0]).toMatchObject({ status: "delivered", attempts: 1, lastHttpStatus: 200, lastError: null });
  });
});
