import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { EventWebhookDestinations } from "~/server/event-webhooks/event-webhook-destination.ts";
import { fetchHandler } from "~/server/http/fetch-adapter.ts";
import { createRateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { createDispatcher, type Dispatcher } from "~/server/rest/dispatch.ts";
import { ROUTES } from "~/server/rest/routes.ts";
import { createRuntime } from "~/server/runtime/create-runtime.ts";
import type { Runtime } from "~/server/runtime/runtime.ts";
import { loadConformance } from "./openapi-conformance.ts";
import { restClient } from "./rest-client.ts";
import { createTestDb, type TestDb } from "./test-db.ts";

export type TestApp = TestDb & {
  /** The runtime on the test database (no background work): its events, caches and limiter. */
  runtime: Runtime;
  /** The REST dispatcher itself, as server.ts mounts it on node:http. */
  handler: Dispatcher;
  /** The same as a WHATWG `(Request) => Response` function, as Next mounts it. */
  dispatch: (request: Request) => Promise<Response>;
  /** A REST client sending this Authorization header (none when omitted). */
  as(authorization?: string): ReturnType<typeof restClient>;
};

/**
 * One fresh database, its runtime and a REST dispatcher for a test file. Every unexpected error (a 500)
 * fails the test that caused it: bad input must always map to a 4xx. So does every
 * response that breaks the platform's API description (openapi-conformance.ts).
 */
export function useTestApp(options: { rateLimitScale?: number; eventWebhookDestinations?: EventWebhookDestinations } = {}): TestApp {
  const unexpected: unknown[] = [];
  const nonConforming: string[] = [];
  const app = {} as TestApp;
  beforeAll(async () => {
    Object.assign(app, await createTestDb());
    app.runtime = createRuntime({
      db: app.db,
      limiter: createRateLimiter({ scale: options.rateLimitScale ?? 1000 }),
      eventWebhookDestinations: options.eventWebhookDestinations,
    });
    app.handler = createDispatcher({
      db: app.db,
      limiter: app.runtime.limiter,
      routes: ROUTES,
      log: (error) => unexpected.push(error),
    });
    app.dispatch = fetchHandler(app.handler);
    const conformance = loadConformance();
    app.as = (authorization) =>
      restClient(app.dispatch, authorization, (exchange) => {
        const problem = conformance.check(exchange);
        if (problem) nonConforming.push(problem);
      });
  });
  afterEach(() => {
    const errors = unexpected.splice(0);
    const problems = nonConforming.splice(0);
    expect(errors, "requests that ended in a 500").toEqual([]);
    if (problems.length > 0) throw new Error(`responses that break the API description:\n\n${problems.join("\n\n")}`);
  });
  afterAll(async () => {
    await app.runtime?.close();
    await app.drop?.();
  });
  return app;
}
