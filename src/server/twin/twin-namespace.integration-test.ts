import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpRequest } from "~/server/http/http-types.ts";
import { createRuntime } from "~/server/runtime/create-runtime.ts";
import type { Runtime } from "~/server/runtime/runtime.ts";
import { createServerDispatcher } from "~/server/serving/server-dispatcher.ts";
import { createTestDb, type TestDb } from "~/test/test-db.ts";
import { createTwin, type Twin } from "./twin.ts";

const TOKEN = "twin-admin-token-for-tests";

function request(path: string, options: { authorization?: string; from?: string | null } = {}): HttpRequest {
  return {
    method: "GET",
    url: `/api/v10${path}`,
    header: (name) => (name === "authorization" ? (options.authorization ?? null) : null),
    clientAddress: options.from === undefined ? "127.0.0.1" : options.from,
    stream: () =>
      (async function* () {
        // No body.
      })(),
  };
}

/** A process's parts as the REST dispatcher sees them, without background work or a gateway. */
type Served = { runtime: Runtime; twin: Twin | null; gateway: null };

async function answer(served: Served, path: string, options?: { authorization?: string; from?: string | null }) {
  const response = await createServerDispatcher(served)(request(path, options));
  return { status: response.status, body: JSON.parse(String(response.body)) as Record<string, unknown> };
}

describe("the twin namespace", () => {
  let database: TestDb;
  let off: Served;
  let on: Served;
  let remote: Served;
  beforeAll(async () => {
    database = await createTestDb();
    off = { runtime: createRuntime({ db: database.db }), twin: null, gateway: null };
  });
  afterAll(async () => {
    await off.runtime.close();
    await database.drop();
  });

  it("does not exist when test mode is off: 404 with the token, as for any unknown route", async () => {
    expect(await answer(off, "/__twin", { authorization: `Twin ${TOKEN}` })).toEqual({ status: 404, body: { code: 0, message: "404: Not Found" } });
  });

  describe("in test mode", () => {
    let second: TestDb;
    let third: TestDb;
    beforeAll(async () => {
      second = await createTestDb();
      third = await createTestDb();
      on = { runtime: createRuntime({ db: second.db, testMode: true }), twin: createTwin({ token: TOKEN }), gateway: null };
      remote = { runtime: createRuntime({ db: third.db, testMode: true }), twin: createTwin({ token: TOKEN, allowRemote: true }), gateway: null };
    });
    afterAll(async () => {
      await on.runtime.close();
      await remote.runtime.close();
      await second.drop();
      await third.drop();
    });

    it("answers the admin token alone, from loopback", async () => {
      const ok = await answer(on, "/__twin", { authorization: `Twin ${TOKEN}` });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ test_mode: true, clock: { frozen: false } });
      expect((await answer(on, "/__twin", { authorization: `Twin ${TOKEN}`, from: "::ffff:127.0.0.1" })).status).toBe(200);
      expect((await answer(on, "/__twin")).status).toBe(401);
      expect((await answer(on, "/__twin", { authorization: `Twin ${TOKEN}x` })).status).toBe(401);
      expect((await answer(on, "/__twin", { authorization: `Bearer ${TOKEN}` })).status).toBe(401);
    });

    it("is hidden from callers beyond loopback unless the operator allows them", async () => {
      expect((await answer(on, "/__twin", { authorization: `Twin ${TOKEN}`, from: "10.1.2.3" })).status).toBe(404);
      expect((await answer(on, "/__twin", { authorization: `Twin ${TOKEN}`, from: null })).status).toBe(404);
      expect((await answer(remote, "/__twin", { authorization: `Twin ${TOKEN}`, from: "10.1.2.3" })).status).toBe(200);
    });

    it("leaves the REST API as it is", async () => {
      expect(await answer(on, "/users/@me")).toEqual({ status: 401, body: { code: 0, message: "401: Unauthorized" } });
      expect((await answer(on, "/__twin/nothing-here", { authorization: `Twin ${TOKEN}` })).status).toBe(404);
    });
  });
});
