import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { createRateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { createDispatcher, type Dispatcher } from "~/server/rest/dispatch.ts";
import { ROUTES } from "~/server/rest/routes.ts";
import { restClient } from "./rest-client.ts";
import { createTestDb, type TestDb } from "./test-db.ts";

export type TestApp = TestDb & {
  dispatch: Dispatcher;
  /** A REST client sending this Authorization header (none when omitted). */
  as(authorization?: string): ReturnType<typeof restClient>;
};

/**
 * One fresh database and REST dispatcher for a test file. Every unexpected error (a 500)
 * fails the test that caused it: bad input must always map to a 4xx.
 */
export function useTestApp(options: { rateLimitScale?: number } = {}): TestApp {
  const unexpected: unknown[] = [];
  const app = {} as TestApp;
  beforeAll(async () => {
    Object.assign(app, await createTestDb());
    app.dispatch = createDispatcher({
      db: app.db,
      limiter: createRateLimiter({ scale: options.rateLimitScale ?? 1000 }),
      routes: ROUTES,
      log: (error) => unexpected.push(error),
    });
    app.as = (authorization) => restClient(app.dispatch, authorization);
  });
  afterEach(() => {
    const errors = unexpected.splice(0);
    expect(errors, "requests that ended in a 500").toEqual([]);
  });
  afterAll(async () => {
    await app.drop?.();
  });
  return app;
}
