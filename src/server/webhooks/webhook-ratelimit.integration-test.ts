import { describe, expect, it } from "vitest";
import { parseTrustedProxies } from "~/server/http/client-address.ts";
import { fetchHandler } from "~/server/http/fetch-adapter.ts";
import { createRateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { createDispatcher, type Dispatcher } from "~/server/rest/dispatch.ts";
import { ROUTES } from "~/server/rest/routes.ts";
import { useHttpServer } from "~/test/http-server.ts";
import { restClient } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { webhookKit } from "~/test/webhook-kit.ts";

const app = useTestApp();
const kit = webhookKit(app);
// Unscaled limits, as in production, over HTTP behind a proxy that names each caller.
let served: Dispatcher;
const server = useHttpServer(() => served, { trustedProxies: parseTrustedProxies("127.0.0.1") });

describe("the per-webhook rate-limit bucket", () => {
  it("lets one webhook execute 5 times per 2 seconds whoever calls, across its formats, and leaves other webhooks alone", async () => {
    const { api, text } = await kit.setup();
    const hook = await kit.webhook(api, text.id, "Busy");
    const other = await kit.webhook(api, text.id, "Quiet");
    served = createDispatcher({ db: app.db, limiter: createRateLimiter(), routes: ROUTES });
    const client = restClient(server.fetch);
    // Each call from another address: the bucket is the webhook's, not the caller's.
    const post = (address: string, path: string, body: unknown) => client.post(path, body, { headers: { "x-forwarded-for": address }, query: { wait: false } });

    const first = await post("10.0.0.1", `/webhooks/${hook.id}/${hook.token}`, { content: "1" });
    expect(first.status).toBe(204);
    expect(first.headers.get("x-ratelimit-limit")).toBe("5");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("4");
    for (let i = 2; i <= 4; i++) expect((await post(`10.0.0.${i}`, `/webhooks/${hook.id}/${hook.token}`, { content: String(i) })).status).toBe(204);
    // The chat-product format spends the same bucket.
    expect((await post("10.0.0.9", `/webhooks/${hook.id}/${hook.token}/slack`, { text: "5" })).status).toBe(200);

    const limited = await post("10.0.0.99", `/webhooks/${hook.id}/${hook.token}`, { content: "6" });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ message: "You are being rate limited.", global: false });
    expect(limited.body.retry_after).toBeGreaterThan(0);
    expect(limited.body.retry_after).toBeLessThanOrEqual(2);
    expect(await app.db.message.count({ where: { webhookId: hook.id } })).toBe(5);

    expect((await post("10.0.0.1", `/webhooks/${other.id}/${other.token}`, { content: "fine" })).status).toBe(204);
  });

  it("lets a channel's webhooks post 30 messages a minute between them, and leaves other channels alone", async () => {
    const { api, text, guild } = await kit.setup();
    const hooks = await Promise.all(Array.from({ length: 7 }, (_, i) => kit.webhook(api, text.id, `Hook ${i}`)));
    const elsewhere = await api.post(`/guilds/${guild.id}/channels`, { name: "elsewhere" });
    const outside = await kit.webhook(api, elsewhere.body.id, "Outside");
    const dispatch = createDispatcher({ db: app.db, limiter: createRateLimiter(), routes: ROUTES });
    const client = restClient(fetchHandler(dispatch));
    const post = (hook: { id: string; token: string }) => client.post(`/webhooks/${hook.id}/${hook.token}`, { content: "tick" }, { query: { wait: false } });

    // Five from each of six webhooks: 30, each within its own 5 per 2 seconds.
    for (const hook of hooks.slice(0, 6)) for (let i = 0; i < 5; i++) expect((await post(hook)).status).toBe(204);
    const limited = await post(hooks[6]!);
    expect(limited.status).toBe(429);
    expect(limited.body.retry_after).toBeGreaterThan(2);
    expect(limited.body.retry_after).toBeLessThanOrEqual(60);
    expect(await app.db.message.count({ where: { channelId: text.id } })).toBe(30);
    expect((await post(outside)).status).toBe(204);
  });

  it("counts made-up tokens against whoever sends them, never against the webhook", async () => {
    const { api, text } = await kit.setup();
    const hook = await kit.webhook(api, text.id);
    served = createDispatcher({ db: app.db, limiter: createRateLimiter(), routes: ROUTES });
    const client = restClient(server.fetch);
    const execute = async (address: string, token: string) =>
      (await client.post(`/webhooks/${hook.id}/${token}`, { content: "hello" }, { headers: { "x-forwarded-for": address }, query: { wait: false } })).status;

    // The webhook's id is on every message it posts; its token is not.
    const guesses = await Promise.all(Array.from({ length: 20 }, (_, i) => execute("203.0.113.66", `guess${i}`.padEnd(68, "x"))));
    expect(guesses.filter((status) => status === 401)).toHaveLength(5);
    expect(guesses.filter((status) => status === 429)).toHaveLength(15);

    for (let i = 0; i < 5; i++) expect(await execute("198.51.100.1", hook.token)).toBe(204);
    expect(await app.db.message.count({ where: { webhookId: hook.id } })).toBe(5);
  });
});
