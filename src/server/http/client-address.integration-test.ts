import { describe, expect, it } from "vitest";
import { createRateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { createDispatcher, type Dispatcher } from "~/server/rest/dispatch.ts";
import { ROUTES } from "~/server/rest/routes.ts";
import { useHttpServer } from "~/test/http-server.ts";
import { useTestApp } from "~/test/test-app.ts";
import { webhookKit } from "~/test/webhook-kit.ts";
import { parseTrustedProxies } from "./client-address.ts";

const app = useTestApp();
const kit = webhookKit(app);
// Unscaled limits, as in production: an unauthenticated caller reads one webhook 25 times a second.
let dispatch: Dispatcher;
const fresh = () => (dispatch = createDispatcher({ db: app.db, limiter: createRateLimiter(), routes: ROUTES }));
const direct = useHttpServer(() => dispatch);
const behindProxy = useHttpServer(() => dispatch, { trustedProxies: parseTrustedProxies("127.0.0.1") });

/** GETs a webhook through its token `times` times at once, X-Forwarded-For made by `forwarded(i)`; how many were refused with 429. */
async function readWebhook(server: typeof direct, hook: { id: string; token: string }, times: number, forwarded: (i: number) => string) {
  const statuses = await Promise.all(
    Array.from({ length: times }, async (_, i) => {
      const res = await fetch(server.url(`/api/v10/webhooks/${hook.id}/${hook.token}`), { headers: { "x-forwarded-for": forwarded(i) } });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
  return statuses.filter((status) => status === 429).length;
}

describe("X-Forwarded-For", () => {
  it("is ignored from a peer that is not a trusted proxy: a made-up address per request still spends the peer's limit", async () => {
    const { api, text } = await kit.setup();
    const hook = await kit.webhook(api, text.id);
    fresh();
    expect(await readWebhook(direct, hook, 26, (i) => `203.0.113.${i}`)).toBe(1);
  });

  it("from a trusted proxy names the client: the right-most address the proxy appended, never what the client wrote", async () => {
    const { api, text } = await kit.setup();
    const hook = await kit.webhook(api, text.id);
    fresh();
    // Thirty clients behind the proxy, each within its own limit.
    expect(await readWebhook(behindProxy, hook, 30, (i) => `203.0.113.${i}`)).toBe(0);
    // One client writing a new address of its own each time is still one client.
    expect(await readWebhook(behindProxy, hook, 26, (i) => `198.51.100.${i}, 192.0.2.44`)).toBe(1);
  });
});
