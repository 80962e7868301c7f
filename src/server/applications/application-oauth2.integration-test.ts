import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { GuildFeature, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { isClientSecret, REDIRECT_URIS_MAX } from "~/server/oauth2/client-settings.ts";
import { createTRPCContext } from "~/server/trpc/init.ts";
import { appRouter, createCaller } from "~/server/trpc/root.ts";
import { addMember, makeGuild, makeUser } from "~/test/factories.ts";
import { DAY_MS, memberKit } from "~/test/member-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { verifyKeyObject } from "./application-keys.ts";

const app = useTestApp();
const kit = memberKit(app);

async function owner() {
  const { user } = await makeUser(app.db);
  const caller = createCaller({ db: app.db, userId: user.id });
  const { application, botToken } = await caller.application.create({ name: "Portal App" });
  return { user, caller, application, botToken, id: { applicationId: application.id } };
}

/** A mutation's error as the dashboard receives it over HTTP, or null when it succeeds. */
async function mutationError(userId: string, path: string, input: unknown) {
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(`http://dashboard.test/api/trpc/${path}`, {
      method: "POST",
      body: JSON.stringify(input),
      headers: { "content-type": "application/json" },
    }),
    router: appRouter,
    createContext: () => createTRPCContext({ db: app.db, userId }),
  });
  const body = (await response.json()) as { error?: { data: { code: string; fieldErrors: Record<string, unknown> | null } } };
  return body.error?.data ?? null;
}

const storedApplication = (id: string) => app.db.application.findUniqueOrThrow({ where: { id } });

describe("the developer portal's OAuth2 settings", () => {
  it("shows the OAuth2 client without its secret, and the public key that checks the application's signatures", async () => {
    const { caller, id } = await owner();
    const detail = await caller.application.get(id);
    expect(detail.oauth2).toEqual({
      hasClientSecret: false,
      redirectUris: [],
      redirectUrisMax: REDIRECT_URIS_MAX,
      publicClient: false,
      partner: false,
      authorizeUrl: expect.stringMatching(/^https?:\/\/[^/]+\/oauth2\/authorize$/),
    });
    expect(detail.bot).toMatchObject({ isPublic: true, requireCodeGrant: false });
    expect(detail.verifyKey).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyKeyObject(detail.verifyKey).asymmetricKeyType).toBe("ed25519");
    expect(JSON.stringify(detail)).not.toMatch(/clientSecretHash|signingKey/);
  });

  it("resets the client secret: shown once, the old one stops matching, and only its existence is shown after", async () => {
    const { caller, id, application } = await owner();
    const { clientSecret: first } = await caller.application.resetClientSecret(id);
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(isClientSecret(await storedApplication(application.id), first)).toBe(true);
    const detail = await caller.application.get(id);
    expect(detail.oauth2.hasClientSecret).toBe(true);
    expect(JSON.stringify(detail)).not.toContain(first);

    const { clientSecret: second } = await caller.application.resetClientSecret(id);
    expect(second).not.toBe(first);
    const stored = await storedApplication(application.id);
    expect(isClientSecret(stored, first)).toBe(false);
    expect(isClientSecret(stored, second)).toBe(true);
  });

  it("edits the redirect URIs by the client's rule: invalid ones and too many are field errors, nothing written", async () => {
    const { user, caller, id } = await owner();
    const set = (redirectUris: string[]) => caller.application.setRedirectUris({ ...id, redirectUris });
    expect((await set(["https://game.example/callback", " mygame://auth ", "https://game.example/callback"])).oauth2.redirectUris).toEqual([
      "https://game.example/callback",
      "mygame://auth",
    ]);
    for (const bad of ["not a url", "https://game.example/cb#fragment", "javascript:alert(1)", "/relative"]) {
      const error = await mutationError(user.id, "application.setRedirectUris", { ...id, redirectUris: ["https://ok.example/", bad] });
      expect(error, bad).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { redirect_uris: { _errors: [{ code: "BASE_TYPE_BAD_VALUE" }] } } });
    }
    const tooMany = Array.from({ length: REDIRECT_URIS_MAX + 1 }, (_, i) => `https://game.example/${i}`);
    expect(await mutationError(user.id, "application.setRedirectUris", { ...id, redirectUris: tooMany })).toMatchObject({
      code: "BAD_REQUEST",
      fieldErrors: { redirect_uris: { _errors: [{ message: `An application may register at most ${REDIRECT_URIS_MAX} redirect URIs.` }] } },
    });
    expect((await caller.application.get(id)).oauth2.redirectUris).toEqual(["https://game.example/callback", "mygame://auth"]);
    expect((await set(tooMany.slice(0, REDIRECT_URIS_MAX))).oauth2.redirectUris).toHaveLength(REDIRECT_URIS_MAX);
    expect((await set([])).oauth2.redirectUris).toEqual([]);
  });

  it("switches public client, public bot and the code grant in one edit each; they persist and show on GET /applications/@me", async () => {
    const { caller, id, application, botToken } = await owner();
    const events = () => app.db.event.count({ where: { type: "APPLICATION_UPDATED" } });
    const before = await events();
    const edited = await caller.application.edit({ ...id, body: { publicClient: true, botPublic: false, botRequireCodeGrant: true } });
    expect(await events()).toBe(before + 1);
    expect(edited.oauth2.publicClient).toBe(true);
    expect(edited.bot).toMatchObject({ isPublic: false, requireCodeGrant: true });
    expect(await storedApplication(application.id)).toMatchObject({ publicClient: true, botPublic: false, botRequireCodeGrant: true, name: "Portal App" });
    const me = await app.as(bot(botToken)).get("/applications/@me");
    expect(me.body).toMatchObject({ bot_public: false, bot_require_code_grant: true });

    await caller.application.edit({ ...id, body: { botPublic: true } });
    expect((await app.as(bot(botToken)).get("/applications/@me")).body).toMatchObject({ bot_public: true, bot_require_code_grant: true });
    expect((await caller.application.get(id)).oauth2.publicClient).toBe(true);
  });

  it("lists the guilds the owner manages for an install link, not those where they are a plain member", async () => {
    const { user, caller, id } = await owner();
    const managed = await makeGuild(app.db, dashboardActor(user.id), "Zeta Guild");
    const other = await makeUser(app.db);
    const visited = await makeGuild(app.db, other.actor, "Alpha Guild");
    await addMember(app.db, visited.id, user.id);
    expect(await caller.application.installGuilds(id)).toEqual([{ id: managed.id, name: "Zeta Guild", icon: null }]);
  });

  it("leaves out a guild whose managing role is held back by membership screening or a timeout, as the authorize page does", async () => {
    const { user, caller, id } = await owner();
    const other = await makeUser(app.db);
    const screened = await makeGuild(app.db, other.actor, "Screened Guild");
    await kit.setFeatures(screened.id, [GuildFeature.MemberVerificationGateEnabled]);
    await addMember(app.db, screened.id, user.id, [(await kit.addRole(screened.id, 1, { permissions: P.ManageGuild })).id]);
    expect((await kit.memberRow(screened.id, user.id))?.pending).toBe(true);
    const timedOut = await makeGuild(app.db, other.actor, "Timed-out Guild");
    await addMember(app.db, timedOut.id, user.id, [(await kit.addRole(timedOut.id, 1, { permissions: P.ManageGuild })).id]);
    await kit.updateMember(timedOut.id, user.id, { communicationDisabledUntil: new Date(Date.now() + DAY_MS) });
    expect(await caller.application.installGuilds(id)).toEqual([]);
    // Screening completed, the role's MANAGE_GUILD holds.
    await kit.updateMember(screened.id, user.id, { pending: false });
    expect(await caller.application.installGuilds(id)).toEqual([{ id: screened.id, name: "Screened Guild", icon: null }]);
  });

  it("treats someone else's application as unknown for every OAuth2 setting", async () => {
    const { id, application } = await owner();
    const { user: stranger } = await makeUser(app.db);
    const caller = createCaller({ db: app.db, userId: stranger.id });
    const unknown = { code: "NOT_FOUND", message: "Unknown Application" };
    await expect(caller.application.resetClientSecret(id)).rejects.toMatchObject(unknown);
    await expect(caller.application.setRedirectUris({ ...id, redirectUris: ["https://evil.example/"] })).rejects.toMatchObject(unknown);
    await expect(caller.application.installGuilds(id)).rejects.toMatchObject(unknown);
    await expect(caller.application.edit({ ...id, body: { botPublic: false } })).rejects.toMatchObject(unknown);
    expect(await storedApplication(application.id)).toMatchObject({ clientSecretHash: null, redirectUris: "[]", botPublic: true });
  });
});
