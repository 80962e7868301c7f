// What a token tells about itself and its user: /oauth2/@me, OpenID Connect (id_token, JWKS,
// userinfo), the scope rules of the user routes, and discovery, driven by a strict client library.
import { verify } from "node:crypto";
import * as oauth from "oauth4webapi";
import { createLocalJWKSet, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { signWithApplicationKey, verifyKeyObject } from "~/server/applications/application-keys.ts";
import { issueBearerToken } from "~/server/applications/application.service.ts";
import type { OAuth2Scope } from "~/server/auth/actor.ts";
import { addMember, makeGuild, makeUser } from "~/test/factories.ts";
import { oauth2Kit, REDIRECT_URI } from "~/test/oauth2-kit.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { GRANTABLE_SCOPES, oauth2Issuer } from "./metadata.ts";
import { s256Challenge } from "./pkce.ts";

const app = useTestApp();
const kit = oauth2Kit(app);

async function tokenFor(scopes: string[], options: { nonce?: string } = {}) {
  const client = await kit.client();
  const { user } = await makeUser(app.db);
  await app.db.user.update({ where: { id: user.id }, data: { email: `${user.username}@mail.example`, premiumType: 2 } });
  const code = await kit.approve(client.id, user.id, scopes, options);
  const res = await kit.post("/oauth2/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI }, client.basic);
  expect(res.status).toBe(200);
  return { client, user, tokens: res.body as { access_token: string; refresh_token: string; id_token?: string; scope: string } };
}

describe("GET /oauth2/@me", () => {
  it("answers the application, scopes, expiry, and the user with identify", async () => {
    const { client, user, tokens } = await tokenFor(["identify", "guilds"]);
    const res = await app.as(bearer(tokens.access_token)).get("/oauth2/@me");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      application: {
        id: client.id,
        name: client.application.name,
        bot_public: true,
        bot_require_code_grant: false,
        verify_key: expect.stringMatching(/^[0-9a-f]{64}$/),
        flags: 0,
        // Every flag bit, as a string, beside the 32-bit flags (spec 9).
        flags_new: "0",
      },
      scopes: ["identify", "guilds"],
      user: { id: user.id, username: user.username },
    });
    const expires = Date.parse(res.body.expires as string) - Date.now();
    expect(expires).toBeGreaterThan(604_700_000);
    expect(expires).toBeLessThanOrEqual(604_800_000);

    const withoutIdentify = await tokenFor(["guilds"]);
    const bare = await app.as(bearer(withoutIdentify.tokens.access_token)).get("/oauth2/@me");
    expect(bare.body.user).toBeUndefined();
    expect((await app.as(bot(client.token)).get("/oauth2/@me")).status).toBe(401);
    // verify_key is the public half of the key that signs the application's event webhooks.
    const { signingKey } = await app.db.application.findUniqueOrThrow({ where: { id: client.id } });
    const signature = signWithApplicationKey(signingKey!, "1700000000", "{}");
    expect(verify(null, Buffer.from("1700000000{}"), verifyKeyObject(res.body.application.verify_key as string), Buffer.from(signature, "hex"))).toBe(true);
  });

  it("GET /oauth2/applications/@me answers the bot's application", async () => {
    const client = await kit.client();
    const res = await app.as(bot(client.token)).get("/oauth2/applications/@me");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: client.id, name: client.application.name, bot: { id: client.user.id } });
  });
});

describe("OpenID Connect", () => {
  it("signs an id_token (RS256) that verifies against /oauth2/keys, with the nonce and, with email, the email", async () => {
    const { client, user, tokens } = await tokenFor(["openid", "identify", "email"], { nonce: "n-0S6_WzA2Mj" });
    expect(tokens.id_token).toEqual(expect.any(String));
    const keys = await app.as().get("/oauth2/keys");
    expect(keys.status).toBe(200);
    expect(keys.body.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig", kid: expect.any(String) });
    expect(keys.body.keys[0].d).toBeUndefined();
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, createLocalJWKSet(keys.body), { issuer: oauth2Issuer(), audience: client.id });
    expect(protectedHeader).toMatchObject({ alg: "RS256", kid: keys.body.keys[0].kid });
    expect(payload).toMatchObject({ sub: user.id, nonce: "n-0S6_WzA2Mj", email: `${user.username}@mail.example`, email_verified: true });
    expect(payload.exp! - payload.iat!).toBe(604800);

    // The same key signs every id_token; without email there is no email claim.
    const second = await tokenFor(["openid"]);
    const verified = await jwtVerify(second.tokens.id_token!, createLocalJWKSet(keys.body), { issuer: oauth2Issuer(), audience: second.client.id });
    expect(verified.payload.email).toBeUndefined();
    expect(verified.payload.nonce).toBeUndefined();
    // No openid, no id_token.
    expect((await tokenFor(["identify"])).tokens.id_token).toBeUndefined();
  });

  it("GET /oauth2/userinfo answers the claims the scopes allow, to openid tokens only", async () => {
    const { user, tokens } = await tokenFor(["openid", "email"]);
    const res = await app.as(bearer(tokens.access_token)).get("/oauth2/userinfo");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sub: user.id, email: `${user.username}@mail.example`, email_verified: true });
    const plain = await tokenFor(["identify"]);
    expect((await app.as(bearer(plain.tokens.access_token)).get("/oauth2/userinfo")).status).toBe(403);
  });
});

describe("scope rules on the user routes", () => {
  const meWith = async (scopes: OAuth2Scope[]) => {
    const { user } = await makeUser(app.db, scopes);
    await app.db.user.update({ where: { id: user.id }, data: { email: `${user.username}@mail.example`, premiumType: 2 } });
    const token = await issueBearerToken({ db: app.db, actor: null }, { userId: user.id, scopes });
    return (await app.as(bearer(token)).get("/users/@me")).body as Record<string, unknown>;
  };

  it("shows premium_type only with identify.premium, and the email only with email", async () => {
    const plain = await meWith(["identify"]);
    expect(plain.premium_type).toBe(0);
    expect(plain.email).toBeUndefined();
    const premium = await meWith(["identify", "identify.premium", "email"]);
    expect(premium.premium_type).toBe(2);
    expect(premium.email).toMatch(/@mail\.example$/);
  });

  it("GET /users/@me/guilds/{id}/member needs guilds.members.read and membership", async () => {
    const owner = await kit.client();
    const guild = await makeGuild(app.db, owner.actor);
    const reader = await makeUser(app.db, ["identify", "guilds.members.read"]);
    const other = await makeUser(app.db, ["identify", "guilds"]);
    await addMember(app.db, guild.id, reader.user.id);
    await addMember(app.db, guild.id, other.user.id);
    const res = await app.as(bearer(reader.token)).get(`/users/@me/guilds/${guild.id}/member`);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(reader.user.id);
    expect((await app.as(bearer(other.token)).get(`/users/@me/guilds/${guild.id}/member`)).status).toBe(403);
    const outsider = await makeUser(app.db, ["guilds.members.read"]);
    expect((await app.as(bearer(outsider.token)).get(`/users/@me/guilds/${guild.id}/member`)).status).toBe(403);
  });
});

describe("discovery and a strict client library (oauth4webapi)", () => {
  const insecure = { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: kit.serverFetch };

  it("validates the metadata (issuer included) and both well-known documents are served", async () => {
    const issuer = new URL(oauth2Issuer());
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));
    expect(as).toMatchObject({
      issuer: oauth2Issuer(),
      token_endpoint: `${oauth2Issuer()}/api/oauth2/token`,
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      scopes_supported: GRANTABLE_SCOPES,
    });
    const oidc = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
    expect(oidc).toMatchObject({ userinfo_endpoint: `${oauth2Issuer()}/api/oauth2/userinfo`, id_token_signing_alg_values_supported: ["RS256"] });
    const head = await kit.serverFetch(`${oauth2Issuer()}/.well-known/openid-configuration`, { method: "POST" });
    expect(head.status).toBe(405);
  });

  it("drives the code flow with PKCE, checks iss, the id_token's claims, and refreshes", async () => {
    const issuer = new URL(oauth2Issuer());
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
    const registered = await kit.client();
    const client: oauth.Client = { client_id: registered.id };
    const clientAuth = oauth.ClientSecretBasic(registered.secret);
    const { user } = await makeUser(app.db);
    const verifier = oauth.generateRandomCodeVerifier();
    expect(await oauth.calculatePKCECodeChallenge(verifier)).toBe(s256Challenge(verifier));
    const code = await kit.approve(registered.id, user.id, ["openid", "identify"], { codeChallenge: await oauth.calculatePKCECodeChallenge(verifier) });

    // The redirect as the authorize page sends it: the code, the state, and iss (RFC 9207).
    const state = oauth.generateRandomState();
    const callback = new URL(REDIRECT_URI);
    callback.search = new URLSearchParams({ code, state, iss: oauth2Issuer() }).toString();
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const forged = new URL(callback);
    forged.searchParams.set("iss", "https://elsewhere.example");
    expect(() => oauth.validateAuthResponse(as, client, forged, state)).toThrow();

    const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT_URI, verifier, insecure);
    const result = await oauth.processAuthorizationCodeResponse(as, client, response, { requireIdToken: true });
    expect(result.token_type).toBe("bearer");
    expect(oauth.getValidatedIdTokenClaims(result)).toMatchObject({ iss: oauth2Issuer(), sub: user.id, aud: registered.id });

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, result.refresh_token!, insecure),
    );
    expect(refreshed.access_token).not.toBe(result.access_token);
    const me = await app.as(bearer(refreshed.access_token)).get("/users/@me");
    expect(me.body.id).toBe(user.id);

    // A wrong verifier is the library's OAuth2 error.
    const again = await kit.approve(registered.id, user.id, ["identify"], { codeChallenge: await oauth.calculatePKCECodeChallenge(verifier) });
    callback.search = new URLSearchParams({ code: again, state, iss: oauth2Issuer() }).toString();
    const wrong = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      oauth.validateAuthResponse(as, client, callback, state),
      REDIRECT_URI,
      oauth.generateRandomCodeVerifier(),
      insecure,
    );
    await expect(oauth.processAuthorizationCodeResponse(as, client, wrong)).rejects.toMatchObject({ error: "invalid_grant" });
  });
});
