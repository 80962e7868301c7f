import { describe, expect, it } from "vitest";
import { createUser, newUserWithPassword } from "~/server/applications/application.service.ts";
import { BUCKETS, createRateLimiter, type RateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { PASSWORD_MAX } from "./password.ts";
import { SignInRateLimitedError, signInClientAddress, signInWithPassword } from "./sign-in.service.ts";

const app = useTestApp();
const HOME = "198.51.100.7";
const ATTACKER = "203.0.113.9";

/**
 * The sign-in limits (times `scale`) without the cap on hashes a second, which attempts one
 * after another reach on a fast machine; that cap has its own test.
 */
function perClientLimits(scale = 1): RateLimiter {
  const limits = createRateLimiter({ scale });
  const unlimited = createRateLimiter({ scale: 1000 });
  return {
    consume: (bucket, id, key, global) => (bucket === "signinHashes" ? unlimited : limits).consume(bucket, id, key, global),
    reset() {
      limits.reset();
      unlimited.reset();
    },
  };
}

describe("signInWithPassword", () => {
  it("accepts the right password, case-insensitively by e-mail, and refuses a wrong one or a bot", async () => {
    const user = await createUser(app.db, await newUserWithPassword({ username: "ines", email: "ines@example.test", password: "a long passphrase" }));
    const deps = { db: app.db, limiter: createRateLimiter() };
    expect(await signInWithPassword(deps, { email: "Ines@Example.test", password: "a long passphrase" }, HOME)).toMatchObject({
      id: user.id,
      email: "ines@example.test",
    });
    expect(await signInWithPassword(deps, { email: "ines@example.test", password: "wrong" }, HOME)).toBeNull();
    expect(await signInWithPassword(deps, { email: "nobody@example.test", password: "a long passphrase" }, HOME)).toBeNull();
    expect(await signInWithPassword(deps, { email: "", password: "x" }, HOME)).toBeNull();
  });

  it("stops guesses at an address after 10 a minute from one client, without locking its owner out elsewhere", async () => {
    await createUser(app.db, await newUserWithPassword({ username: "olaf", email: "olaf@example.test", password: "right password" }));
    const deps = { db: app.db, limiter: perClientLimits() };
    for (let i = 0; i < 10; i++) expect(await signInWithPassword(deps, { email: "olaf@example.test", password: `guess ${i}` }, ATTACKER)).toBeNull();
    await expect(signInWithPassword(deps, { email: "olaf@example.test", password: "right password" }, ATTACKER)).rejects.toBeInstanceOf(SignInRateLimitedError);
    expect(await signInWithPassword(deps, { email: "olaf@example.test", password: "right password" }, HOME)).toMatchObject({ email: "olaf@example.test" });
  });

  it("stops a client trying many e-mail addresses after 60 a minute", async () => {
    // A tenth of the limit: 6 attempts, not 60 hashes.
    const perClient = BUCKETS.signinClient.points / 10;
    const deps = { db: app.db, limiter: perClientLimits(0.1) };
    for (let i = 0; i < perClient; i++) expect(await signInWithPassword(deps, { email: `user${i}@example.test`, password: "x" }, ATTACKER)).toBeNull();
    await expect(signInWithPassword(deps, { email: "another@example.test", password: "x" }, ATTACKER)).rejects.toBeInstanceOf(SignInRateLimitedError);
    expect(await signInWithPassword(deps, { email: "another@example.test", password: "x" }, HOME)).toBeNull();
  });

  it("checks at most 5 passwords a second in all, whatever the addresses", async () => {
    const deps = { db: app.db, limiter: createRateLimiter() };
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => signInWithPassword(deps, { email: `rotating${i}@example.test`, password: "x" }, `192.0.2.${i}`)),
    );
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(5);
    expect(attempts.filter((a) => a.status === "rejected").map((a) => a.reason)).toEqual(Array.from({ length: 3 }, () => expect.any(SignInRateLimitedError)));
  });

  it("takes passwords of up to 128 characters and checks no longer one", async () => {
    const longest = "p".repeat(PASSWORD_MAX);
    await createUser(app.db, await newUserWithPassword({ username: "pat", email: "pat@example.test", password: longest }));
    await expect(newUserWithPassword({ username: "pat2", email: "pat2@example.test", password: `${longest}p` })).rejects.toThrow(/at most 128/);
    const deps = { db: app.db, limiter: createRateLimiter() };
    expect(await signInWithPassword(deps, { email: "pat@example.test", password: longest }, HOME)).toMatchObject({ email: "pat@example.test" });
    expect(await signInWithPassword(deps, { email: "pat@example.test", password: `${longest}p` }, HOME)).toBeNull();
    expect(await signInWithPassword(deps, { email: "pat@example.test", password: "p".repeat(1_000_000) }, HOME)).toBeNull();
  });
});

describe("signInClientAddress", () => {
  it("is the address the nearest proxy added to X-Forwarded-For", () => {
    expect(signInClientAddress({ "x-forwarded-for": "10.0.0.1, 203.0.113.9" })).toBe("203.0.113.9");
    expect(signInClientAddress({ "x-forwarded-for": "198.51.100.7" })).toBe("198.51.100.7");
    expect(signInClientAddress({})).toBe("unknown");
    expect(signInClientAddress(undefined)).toBe("unknown");
  });
});
