import { describe, expect, it } from "vitest";
import { createUser } from "~/server/applications/application.service.ts";
import { createRateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { SignInRateLimitedError, signInWithPassword } from "./sign-in.service.ts";

const app = useTestApp();

describe("signInWithPassword", () => {
  it("accepts the right password, case-insensitively by e-mail, and refuses a wrong one or a bot", async () => {
    const user = await createUser(app.db, { username: "ines", email: "ines@example.test", password: "a long passphrase" });
    const deps = { db: app.db, limiter: createRateLimiter() };
    expect(await signInWithPassword(deps, { email: "Ines@Example.test", password: "a long passphrase" })).toMatchObject({
      id: user.id,
      email: "ines@example.test",
    });
    expect(await signInWithPassword(deps, { email: "ines@example.test", password: "wrong" })).toBeNull();
    expect(await signInWithPassword(deps, { email: "nobody@example.test", password: "a long passphrase" })).toBeNull();
    expect(await signInWithPassword(deps, { email: "", password: "x" })).toBeNull();
  });

  it("stops an address after 10 attempts a minute, even with the right password", async () => {
    await createUser(app.db, { username: "olaf", email: "olaf@example.test", password: "right password" });
    const deps = { db: app.db, limiter: createRateLimiter() };
    for (let i = 0; i < 10; i++) expect(await signInWithPassword(deps, { email: "olaf@example.test", password: `guess ${i}` })).toBeNull();
    await expect(signInWithPassword(deps, { email: "olaf@example.test", password: "right password" })).rejects.toBeInstanceOf(SignInRateLimitedError);
    // Other addresses are not affected.
    expect(await signInWithPassword(deps, { email: "someone@example.test", password: "x" })).toBeNull();
  });
});
