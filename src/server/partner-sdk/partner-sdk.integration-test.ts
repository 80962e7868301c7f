// Provisional accounts end to end: external credentials verified against a real JWKS server,
// the Bot endpoint, a provisional player in lobbies, merging into a full account (with the
// ban that refuses it), and unmerging again.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "~/server/applications/application.service.ts";
import { oauth2Issuer } from "~/server/oauth2/metadata.ts";
import { jsonWebKeySet } from "~/server/oauth2/signing-key.ts";
import { tokenIdOf } from "~/server/auth/tokens.service.ts";
import { runChange } from "~/server/events/change.ts";
import { resetClientSecret } from "~/server/oauth2/client-settings.ts";
import { setUserBan } from "~/server/users/user-ban.service.ts";
import { makeBot } from "~/test/factories.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { oauth2Kit } from "~/test/oauth2-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { setIdentityProvider } from "./identity-providers.ts";
import { mergeProvisionalAccount, verifyMergeCredential } from "./provisional-merge.ts";

const app = useTestApp();
const ISSUER = "https://id.game.example";
const AUDIENCE = "game-client";
const KID = "key-1";

let jwks: Server;
let signingKey: CryptoKey;
let strangerKey: CryptoKey;
let game: Awaited<ReturnType<typeof makeBot>>;
let clientSecret: string;

beforeAll(async () => {
  const own = await generateKeyPair("RS256");
  signingKey = own.privateKey;
  // Another key under the same kid: what it signs does not verify with the published key.
  strangerKey = (await generateKeyPair("RS256")).privateKey;
  const ownPublic = await exportJWK(own.publicKey);
  const body = JSON.stringify({ keys: [{ ...ownPublic, kid: KID, alg: "RS256", use: "sig" }] });
  jwks = createServer((_, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  game = await makeBot(app.db);
  clientSecret = await resetClientSecret({ db: app.db, actor: null }, game.application.id);
  const jwksUri = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/keys`;
  await setIdentityProvider({ db: app.db, actor: null }, game.application.id, { type: "OIDC", issuer: ISSUER, audience: AUDIENCE, jwks_uri: jwksUri });
});

afterAll(() => new Promise<void>((resolve) => jwks.close(() => resolve())));

/** An id_token from the game's identity provider, with what a test changes. */
async function idToken(
  sub: string,
  options: { key?: CryptoKey; issuer?: string; audience?: string; issuedAt?: number; expiresAt?: number; kid?: string | null; name?: string } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  const header = options.kid === null ? { alg: "RS256" } : { alg: "RS256", kid: options.kid ?? KID };
  return new SignJWT(options.name ? { preferred_username: options.name } : {})
    .setProtectedHeader(header)
    .setSubject(sub)
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt(options.issuedAt ?? now)
    .setExpirationTime(options.expiresAt ?? now + 3600)
    .sign(options.key ?? signingKey);
}

const exchange = (token: string, extra: Record<string, unknown> = {}) =>
  app.as().post("/partner-sdk/token", {
    client_id: game.application.id,
    client_secret: clientSecret,
    external_auth_type: "OIDC",
    external_auth_token: token,
    ...extra,
  });

const botToken = (externalUserId: string, name?: string) =>
  app.as(bot(game.token)).post("/partner-sdk/token/bot", { external_user_id: externalUserId, ...(name && { preferred_global_name: name }) });

/** The user a provisional token belongs to, read through the lobby a player makes with it. */
async function joinLobby(accessToken: string, secret: string) {
  const res = await app.as(bearer(accessToken)).put("/lobbies", { secret });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; members: { id: string }[] };
}

async function userOfToken(accessToken: string) {
  const row = await app.db.token.findUniqueOrThrow({ where: { id: tokenIdOf(accessToken)! }, include: { user: true } });
  return row.user;
}

async function merge(userId: string, externalAuthType: string, externalAuthToken: string) {
  const applicationId = game.application.id;
  const claim = await verifyMergeCredential(app.db, { applicationId, externalAuthType, externalAuthToken });
  return runChange({ db: app.db, actor: null }, (change) => mergeProvisionalAccount(change, { applicationId, userId, claim }));
}

describe("POST /partner-sdk/token (external credentials)", () => {
  it("verifies an OIDC id_token and answers a provisional account's token that lobbies take", async () => {
    const res = await exchange(await idToken("player-1", { name: "Ranger" }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 604800, scope: "sdk.social_layer" });
    expect(typeof res.body.refresh_token).toBe("string");
    const user = await userOfToken(res.body.access_token);
    expect(user).toMatchObject({ provisionalApplicationId: game.application.id, globalName: "Ranger" });
    // Signed with the key the server publishes at /oauth2/keys, for the game's client.
    const keys = createLocalJWKSet(await jsonWebKeySet(app.db));
    const { payload } = await jwtVerify(res.body.id_token, keys, { audience: game.application.id, issuer: oauth2Issuer() });
    expect(payload.sub).toBe(user.id);

    const lobby = await joinLobby(res.body.access_token, "oidc-lobby");
    expect(lobby.members.map((member) => member.id)).toEqual([user.id]);
    // The same identity signs in as the same account.
    const again = await exchange(await idToken("player-1"));
    expect((await userOfToken(again.body.access_token)).id).toBe(user.id);
  });

  it("refuses id_tokens the provider did not sign, or signed for someone else, or too old", async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [Promise<string>, number][] = [
      [idToken("p", { key: strangerKey }), 530020],
      [idToken("p", { issuer: "https://elsewhere.example" }), 530002],
      [idToken("p", { audience: "another-game" }), 530003],
      [idToken("p", { issuedAt: now - 7200, expiresAt: now - 60 }), 530001],
      [idToken("p", { issuedAt: now - 8 * 86400, expiresAt: now + 3600 }), 530004],
      [idToken("p", { kid: null }), 530027],
      [Promise.resolve("not.a.jwt"), 530020],
    ];
    for (const [token, code] of cases) {
      const res = await exchange(await token);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
    }
    expect(await app.db.externalIdentity.count({ where: { subject: "p" } })).toBe(0);
  });

  it("refuses provider types this application has not set up, and a wrong client secret", async () => {
    const steam = await exchange("ticket", { external_auth_type: "STEAM_SESSION_TICKET" });
    expect([steam.status, steam.body.code]).toEqual([400, 530000]);
    const wrong = await exchange(await idToken("player-1"), { client_secret: "nope" });
    expect([wrong.status, wrong.body.code]).toEqual([401, 530007]);
    const none = await exchange(await idToken("player-1"), { client_secret: null });
    expect([none.status, none.body.code]).toEqual([401, 530007]);
    const unknownType = await exchange("x", { external_auth_type: "MAGIC" });
    expect([unknownType.status, unknownType.body.code]).toEqual([400, 50035]);
  });
});

describe("POST /partner-sdk/token/bot", () => {
  it("makes one provisional account per game id, named as the game asks, without a refresh token", async () => {
    const first = await botToken("game-42", "Wanderer");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.refresh_token).toBeUndefined();
    const user = await userOfToken(first.body.access_token);
    expect(user).toMatchObject({ globalName: "Wanderer", provisionalApplicationId: game.application.id });
    expect((await userOfToken((await botToken("game-42")).body.access_token)).id).toBe(user.id);
    // A bearer token is not the game's backend.
    expect((await app.as(bearer(first.body.access_token)).post("/partner-sdk/token/bot", { external_user_id: "x" })).status).toBe(401);
  });
});

describe("merging and unmerging", () => {
  it("moves the provisional player's lobbies to the full account, removes it, and unmerges into a new provisional account", async () => {
    const issued = (await botToken("game-merge", "Scout")).body.access_token as string;
    const provisional = await userOfToken(issued);
    const lobby = await joinLobby(issued, "merge-lobby");
    const full = await createUser(app.db, { username: `full_${Date.now()}`, globalName: "Scout Prime" });

    const result = await merge(full.id, "DISCORD_BOT_ISSUED_ACCESS_TOKEN", issued);
    expect(result).toEqual({ mergedUserId: provisional.id, lobbyIds: [lobby.id] });
    expect(await app.db.user.findUnique({ where: { id: provisional.id } })).toBeNull();
    expect((await app.db.lobbyMember.findMany({ where: { lobbyId: lobby.id } })).map((m) => m.userId)).toEqual([full.id]);
    expect((await app.as(bearer(issued)).put("/lobbies", { secret: "merge-lobby" })).status).toBe(401);
    // The identity now belongs to a full account, which signs in through OAuth2.
    const linked = await botToken("game-merge");
    expect([linked.status, linked.body.code]).toEqual([400, 530010]);

    const unmerge = await app.as(bot(game.token)).post("/partner-sdk/provisional-accounts/unmerge/bot", { external_user_id: "game-merge" });
    expect(unmerge.status).toBe(204);
    const fresh = await botToken("game-merge");
    const again = await userOfToken(fresh.body.access_token);
    expect(again.id).not.toBe(full.id);
    expect(again).toMatchObject({ provisionalApplicationId: game.application.id, globalName: "Scout Prime" });
    expect((await app.db.lobbyMember.findMany({ where: { lobbyId: lobby.id } })).map((m) => m.userId)).toEqual([again.id]);

    const twice = await app.as(bot(game.token)).post("/partner-sdk/provisional-accounts/unmerge/bot", { external_user_id: "game-merge" });
    expect([twice.status, twice.body.code]).toEqual([400, 50229]);
    const unknown = await app.as(bot(game.token)).post("/partner-sdk/provisional-accounts/unmerge/bot", { external_user_id: "nobody" });
    expect(unknown.status).toBe(404);
  });

  it("refuses with 530017 while the provisional account's ban stands, and merges once it is lifted", async () => {
    const token = await idToken("banned-player");
    const issued = (await exchange(token)).body.access_token as string;
    const provisional = await userOfToken(issued);
    const full = await createUser(app.db, { username: `full_${Date.now()}` });

    await setUserBan({ db: app.db, actor: null }, provisional.id, new Date(Date.now() + 86_400_000));
    expect((await app.as(bearer(issued)).put("/lobbies", { secret: "ban-lobby" })).status).toBe(401);
    await expect(merge(full.id, "OIDC", token)).rejects.toMatchObject({ code: 530017, status: 400 });
    expect(await app.db.user.findUnique({ where: { id: provisional.id } })).not.toBeNull();

    await setUserBan({ db: app.db, actor: null }, provisional.id, null);
    expect((await app.as(bearer(issued)).put("/lobbies", { secret: "ban-lobby" })).status).toBe(200);
    expect(await merge(full.id, "OIDC", token)).toMatchObject({ mergedUserId: provisional.id });

    // Unmerging with the player's credentials: the game's client and the same id_token.
    const res = await app.as().post("/partner-sdk/provisional-accounts/unmerge", {
      client_id: game.application.id,
      client_secret: clientSecret,
      external_auth_type: "OIDC",
      external_auth_token: token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect((await userOfToken((await exchange(token)).body.access_token)).provisionalApplicationId).toBe(game.application.id);
  });

  it("merges through the token endpoint's code grant, and refuses with 530017 there while the ban stands", async () => {
    const oauth2 = oauth2Kit(app);
    const token = await idToken("endpoint-player");
    const issued = (await exchange(token)).body.access_token as string;
    const provisional = await userOfToken(issued);
    const lobby = await joinLobby(issued, "endpoint-lobby");
    const full = await createUser(app.db, { username: `full_${Date.now()}` });
    const codeGrant = async (extra: Record<string, string>) =>
      oauth2.post("/oauth2/token", {
        grant_type: "authorization_code",
        code: await oauth2.approve(game.application.id, full.id, ["identify", "sdk.social_layer"], { redirectUri: null }),
        client_id: game.application.id,
        client_secret: clientSecret,
        ...extra,
      });

    const half = await codeGrant({ external_auth_type: "OIDC" });
    expect([half.status, half.body.error]).toEqual([400, "invalid_request"]);

    await setUserBan({ db: app.db, actor: null }, provisional.id, new Date(Date.now() + 86_400_000));
    const refused = await codeGrant({ external_auth_type: "OIDC", external_auth_token: token });
    expect([refused.status, refused.body.code]).toEqual([400, 530017]);
    expect(await app.db.user.findUnique({ where: { id: provisional.id } })).not.toBeNull();
    expect(await app.db.token.count({ where: { userId: full.id, kind: "bearer" } })).toBe(0);

    await setUserBan({ db: app.db, actor: null }, provisional.id, null);
    const merged = await codeGrant({ external_auth_type: "OIDC", external_auth_token: token });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect((await userOfToken(merged.body.access_token)).id).toBe(full.id);
    expect(await app.db.user.findUnique({ where: { id: provisional.id } })).toBeNull();
    expect((await app.db.lobbyMember.findMany({ where: { lobbyId: lobby.id } })).map((m) => m.userId)).toEqual([full.id]);
  });

  it("refuses a provisional destination and a second identity of the application on one account", async () => {
    const a = (await botToken("dest-a")).body.access_token as string;
    const b = (await botToken("dest-b")).body.access_token as string;
    await expect(merge((await userOfToken(b)).id, "DISCORD_BOT_ISSUED_ACCESS_TOKEN", a)).rejects.toMatchObject({ code: 530016 });
    const full = await createUser(app.db, { username: `full_${Date.now()}` });
    await merge(full.id, "DISCORD_BOT_ISSUED_ACCESS_TOKEN", a);
    await expect(merge(full.id, "DISCORD_BOT_ISSUED_ACCESS_TOKEN", b)).rejects.toMatchObject({ code: 530023 });
    await expect(merge(full.id, "DISCORD_BOT_ISSUED_ACCESS_TOKEN", "1.bogus")).rejects.toMatchObject({ code: 50025 });
  });
});
