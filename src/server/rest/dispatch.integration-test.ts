import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_BODY_BYTES } from "~/server/http/http-types.ts";
import { serveNode } from "~/server/http/node-adapter.ts";
import { createRateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { makeBot, makeGuild } from "~/test/factories.ts";
import { inOneBatch } from "~/test/one-batch.ts";
import { bot, restClient, type RestResponse } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { fetchHandler } from "~/server/http/fetch-adapter.ts";
import { queryList, ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { createDispatcher } from "./dispatch.ts";
import { ok, route } from "./route.ts";
import { ROUTES } from "./routes.ts";

const app = useTestApp();

describe("REST dispatcher", () => {
  it("answers unknown paths 404 and known paths with a wrong method 405, in the envelope", async () => {
    const b = await makeBot(app.db);
    expect((await app.as(bot(b.token)).get("/nothing/here")).body).toEqual({ code: 0, message: "404: Not Found" });
    const wrong = await app.as(bot(b.token)).put("/users/@me");
    expect(wrong.status).toBe(405);
    expect(wrong.body).toEqual({ code: 0, message: "405: Method Not Allowed" });
  });

  it("serves /api without a version as v10 and refuses other versions", async () => {
    const b = await makeBot(app.db);
    const headers = { authorization: bot(b.token) };
    expect((await app.dispatch(new Request("http://x/api/users/@me", { headers }))).status).toBe(200);
    expect((await app.dispatch(new Request("http://x/api/v9/users/@me", { headers }))).status).toBe(404);
  });

  it("answers a path segment with a NUL byte as no such resource (PostgreSQL takes no NUL in text)", async () => {
    const b = await makeBot(app.db);
    const guild = await makeGuild(app.db, b.actor);
    const api = app.as(bot(b.token));
    for (const path of [`/guilds/%00`, `/guilds/${guild.id}/members/a%00b`, `/webhooks/1/%00`]) {
      const res = await api.get(path);
      expect([path, res.status, res.body]).toEqual([path, 404, { code: 0, message: "404: Not Found" }]);
    }
  });

  it("answers malformed JSON with 50109 and changes nothing", async () => {
    const b = await makeBot(app.db);
    const guild = await makeGuild(app.db, b.actor);
    const res = await app.as(bot(b.token)).patch(`/guilds/${guild.id}`, undefined, { rawBody: "{name:", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50109);
  });

  it("answers a non-object body with 50035", async () => {
    const b = await makeBot(app.db);
    const guild = await makeGuild(app.db, b.actor);
    const res = await app.as(bot(b.token)).patch(`/guilds/${guild.id}`, [1, 2]);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
  });

  it("reads a repeated query parameter as a list, and a repeated single one as 50035", async () => {
    const echo = route({
      method: "GET",
      path: "/echo",
      auth: "none",
      query: z.object({ id: queryList(ZSnowflakeSchema, 2).optional(), one: z.string().optional() }),
      handler: ({ query }) => Promise.resolve(ok(query)),
    });
    const api = restClient(fetchHandler(createDispatcher({ db: app.db, limiter: createRateLimiter(), routes: [echo] })));
    expect((await api.get("/echo", { query: { id: ["1", "2"] } })).body).toEqual({ id: ["1", "2"] });
    expect((await api.get("/echo", { query: { id: "1" } })).body).toEqual({ id: ["1"] });
    const tooMany = await api.get("/echo", { query: { id: ["1", "2", "3"] } });
    expect([tooMany.status, tooMany.body.errors.id._errors[0].code]).toEqual([400, "BASE_TYPE_MAX_LENGTH"]);
    const bad = await api.get("/echo", { query: { id: ["1", "x"] } });
    expect(Object.keys(bad.body.errors.id)).toEqual(["1"]);
    expect((await api.get("/echo", { query: { one: ["a", "b"] } })).body.code).toBe(50035);
    expect((await api.get("/echo?__proto__=x&__proto__=y&one=a")).body).toEqual({ one: "a" });
  });

  it("answers an unexpected failure with a logged 500 in the envelope", async () => {
    const logged: unknown[] = [];
    const failing = route({ method: "GET", path: "/boom", auth: "none", handler: () => Promise.reject(new Error("kaboom")) });
    const dispatch = createDispatcher({ db: app.db, limiter: createRateLimiter(), routes: [failing], log: (error) => logged.push(error) });
    const res = await restClient(fetchHandler(dispatch)).get("/boom");
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 0, message: "500: Internal Server Error" });
    expect(logged).toHaveLength(1);
  });

  it("answers a row another request removed meanwhile 404 in the envelope, not a failure", async () => {
    const b = await makeBot(app.db);
    const guild = await makeGuild(app.db, b.actor);
    const api = app.as(bot(b.token));
    // Records the bot's activity, so each delete below makes the only change of its request.
    expect((await api.get(`/guilds/${guild.id}`)).status).toBe(200);
    // Both find the guild; the first to be written deletes it, the second's delete finds no row (P2025).
    const outcomes = await inOneBatch(app.runtime, [() => api.delete(`/guilds/${guild.id}`), () => api.delete(`/guilds/${guild.id}`)]);
    const answers = outcomes.map((outcome) => (outcome.status === "fulfilled" ? [outcome.value.status, outcome.value.body] : outcome.reason));
    expect(answers).toEqual([
      [204, ""],
      [404, { code: 0, message: "404: Not Found" }],
    ]);
  });

  it("refuses a body over 16 MiB with 413 on node:http and through fetch", async () => {
    const b = await makeBot(app.db);
    const guild = await makeGuild(app.db, b.actor);
    const huge = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES) });
    const viaFetch = await app.as(bot(b.token)).patch(`/guilds/${guild.id}`, undefined, { rawBody: huge });
    expect(viaFetch.status).toBe(413);
    expect(viaFetch.body).toEqual({ code: 40005, message: "Request entity too large" });

    const server = createServer((req, res) => serveNode(app.handler, req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/v10/guilds/${guild.id}`, {
        method: "PATCH",
        headers: { authorization: bot(b.token), "content-type": "application/json" },
        body: huge,
      });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { code: number }).code).toBe(40005);
    } finally {
      server.close();
    }
    expect((await app.db.guild.findUniqueOrThrow({ where: { id: guild.id } })).name).toBe(guild.name);
  });

  it("rejects an audit reason longer than 512 characters", async () => {
    const b = await makeBot(app.db);
    const guild = await makeGuild(app.db, b.actor);
    const res = await app.as(bot(b.token)).patch(`/guilds/${guild.id}`, { name: "Fine" }, { headers: { "x-audit-log-reason": "r".repeat(513) } });
    expect(res.status).toBe(400);
    expect(res.body.errors.reason._errors[0].code).toBe("BASE_TYPE_MAX_LENGTH");
  });

  it("sends rate-limit headers and a 429 with retry_after once a bucket is spent", async () => {
    const b = await makeBot(app.db);
    const guild = await makeGuild(app.db, b.actor);
    // Unscaled limits: the per-route bucket holds 25 requests per second.
    const dispatch = createDispatcher({ db: app.db, limiter: createRateLimiter(), routes: ROUTES });
    const api = restClient(fetchHandler(dispatch), bot(b.token));
    const first = await api.get(`/guilds/${guild.id}`);
    expect(first.headers.get("x-ratelimit-limit")).toBe("25");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("24");
    expect(Number(first.headers.get("x-ratelimit-reset-after"))).toBeGreaterThan(0);
    expect(first.headers.get("x-ratelimit-bucket")).toMatch(/^[0-9a-f]{32}$/);
    let limited: RestResponse | undefined;
    for (let i = 0; i < 30 && !limited; i++) {
      const res = await api.get(`/guilds/${guild.id}`);
      if (res.status === 429) limited = res;
    }
    expect(limited).toBeDefined();
    expect(limited!.body).toMatchObject({ message: "You are being rate limited.", global: false });
    expect(limited!.body.retry_after).toBeGreaterThan(0);
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited!.headers.get("x-ratelimit-remaining")).toBe("0");
    // Another guild is another bucket.
    const other = await makeGuild(app.db, b.actor);
    expect((await api.get(`/guilds/${other.id}`)).status).toBe(200);
  });
});
