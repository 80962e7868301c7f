import { describe, expect, it } from "vitest";
import { createUser, newUserWithPassword } from "~/server/applications/application.service.ts";
import { useTestApp } from "~/test/test-app.ts";
import { resolveExternalAccountUser, type ExternalIdentity } from "./external-account.service.ts";

const app = useTestApp();

let counter = 0;
function identity(overrides: Partial<ExternalIdentity> = {}): ExternalIdentity {
  counter += 1;
  return {
    provider: "oidc",
    subject: `subject-${Date.now()}-${counter}`,
    email: null,
    emailVerified: false,
    displayName: "Grace Hopper",
    preferredUsername: "Grace.Hopper",
    ...overrides,
  };
}

describe("resolveExternalAccountUser", () => {
  it("creates a user on first sign-in and returns the same one afterwards", async () => {
    const person = identity({ email: `grace-${counter}@example.test`, emailVerified: true });
    const first = await resolveExternalAccountUser(app.db, person);
    const again = await resolveExternalAccountUser(app.db, { ...person, displayName: "Changed" });
    expect(again).toBe(first);
    const user = await app.db.user.findUniqueOrThrow({ where: { id: first } });
    expect(user).toMatchObject({ username: "grace.hopper", globalName: "Grace Hopper", email: person.email, passwordHash: null });
  });

  it("links to the existing account with the same verified e-mail", async () => {
    const existing = await createUser(
      app.db,
      await newUserWithPassword({ username: "ada", email: `ada-${Date.now()}@example.test`, password: "correct horse battery" }),
    );
    const linked = await resolveExternalAccountUser(app.db, identity({ email: existing.email!.toUpperCase(), emailVerified: true }));
    expect(linked).toBe(existing.id);
  });

  it("never takes over an account through an unverified e-mail", async () => {
    const existing = await createUser(app.db, { username: "ada", email: `ada-unverified-${Date.now()}@example.test` });
    const other = await resolveExternalAccountUser(app.db, identity({ email: existing.email, emailVerified: false }));
    expect(other).not.toBe(existing.id);
    const created = await app.db.user.findUniqueOrThrow({ where: { id: other } });
    expect(created.email).toBeNull();
  });

  it("keeps different subjects apart", async () => {
    const a = await resolveExternalAccountUser(app.db, identity());
    const b = await resolveExternalAccountUser(app.db, identity());
    expect(a).not.toBe(b);
  });
});
