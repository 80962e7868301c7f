import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "./ratelimit.ts";

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describe("rate limiter", () => {
  const clients: Redis[] = [];
  afterAll(() => clients.forEach((c) => c.disconnect()));

  it("spends a bucket in memory and reports what is left", async () => {
    const limiter = createRateLimiter();
    const key = randomBytes(4).toString("hex");
    const first = await limiter.consume("route", "GET /x", key);
    expect(first).toMatchObject({ limit: 25, remaining: 24, limited: false, bucket: "GET /x" });
    let last = first;
    for (let i = 0; i < 25; i++) last = await limiter.consume("route", "GET /x", key);
    expect(last.limited).toBe(true);
    expect(last.resetAfterMs).toBeGreaterThan(0);
  });

  it("shares buckets between instances through Redis", async () => {
    const a = new Redis(redisUrl);
    const b = new Redis(redisUrl);
    clients.push(a, b);
    await a.ping();
    const first = createRateLimiter({ redis: a });
    const second = createRateLimiter({ redis: b });
    const key = randomBytes(8).toString("hex");
    for (let i = 0; i < 25; i++) expect((await first.consume("route", "GET /shared", key)).limited).toBe(false);
    const fromOtherInstance = await second.consume("route", "GET /shared", key);
    expect(fromOtherInstance.limited).toBe(true);
    expect(fromOtherInstance.remaining).toBe(0);
  });

  it("scales every bucket", async () => {
    const limiter = createRateLimiter({ scale: 2 });
    expect((await limiter.consume("global", "global", randomBytes(4).toString("hex"), true)).limit).toBe(100);
  });
});
