// The partner SDK's operator commands, each run on the test database.
import { describe, expect, it } from "vitest";
import { authenticate } from "~/server/auth/tokens.service.ts";
import { makeBot, makeUser } from "~/test/factories.ts";
import { runCliInProcess, type CliRun } from "~/test/cli-in-process.ts";
import { bearer } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();

function cli(args: string[]): Promise<CliRun> {
  return runCliInProcess(args, { DATABASE_URL: app.url });
}

describe("app identity-provider", () => {
  it("sets an OIDC provider, lists it as JSON, refuses other types, and removes it", async () => {
    const game = await makeBot(app.db);
    const id = game.application.id;
    const set = await cli([
      "app",
      "identity-provider",
      id,
      "--type",
      "OIDC",
      "--issuer",
      "https://id.example",
      "--audience",
      "game",
      "--jwks-uri",
      "https://id.example/keys",
      "--json",
    ]);
    expect(set.stderr).toBe("");
    expect(JSON.parse(set.stdout)).toEqual({
      application_id: id,
      identity_providers: [{ type: "OIDC", issuer: "https://id.example", audience: "game", jwks_uri: "https://id.example/keys" }],
    });
    const steam = await cli([
      "app",
      "identity-provider",
      id,
      "--type",
      "STEAM_SESSION_TICKET",
      "--issuer",
      "https://x.example",
      "--audience",
      "a",
      "--jwks-uri",
      "https://x.example/k",
    ]);
    expect(steam.code).toBe(1);
    expect(steam.stderr).toContain("Only OIDC");
    const removed = await cli(["app", "identity-provider", id, "--type", "OIDC", "--remove", "--json"]);
    expect(JSON.parse(removed.stdout).identity_providers).toEqual([]);
    expect(await app.db.identityProvider.count({ where: { applicationId: id } })).toBe(0);
  });
});

describe("user ban", () => {
  it("bans an account, whose tokens then stop authenticating, and lifts the ban", async () => {
    const { user, token } = await makeUser(app.db);
    const banEnd = new Date(Date.now() + 3_600_000).toISOString();
    const banned = await cli(["user", "ban", user.id, "--until", banEnd, "--json"]);
    expect(banned.stderr).toBe("");
    expect(JSON.parse(banned.stdout)).toEqual({ user_id: user.id, banned_until: banEnd });
    expect(await authenticate(app.db, bearer(token))).toBeNull();
    const lifted = await cli(["user", "ban", user.id, "--lift", "--json"]);
    expect(JSON.parse(lifted.stdout)).toEqual({ user_id: user.id, banned_until: null });
    // Lifting in this process lets the token authenticate again: partner-sdk.integration-test.ts.
    expect((await app.db.user.findUniqueOrThrow({ where: { id: user.id } })).bannedUntil).toBeNull();
    const both = await cli(["user", "ban", user.id, "--until", banEnd, "--lift"]);
    expect(both.code).toBe(1);
  });
});
