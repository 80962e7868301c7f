import { describe, expect, it } from "vitest";
import { ChannelType } from "discord-api-types/v10";
import { CODE_LIFETIME_MS, deauthorize, secretDigest } from "./grants.ts";
import { PROVISIONAL_REFRESH_DEPRECATED } from "./grants/refresh-token.ts";
import { s256Challenge } from "./pkce.ts";
import { makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { oauth2Kit, REDIRECT_URI } from "~/test/oauth2-kit.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = oauth2Kit(app);
const VERIFIER = "a-verifier-of-forty-three-characters-or-more-0123456789";

async function exchange(client: Awaited<ReturnType<typeof kit.client>>, code: string, extra: Record<string, string> = {}) {
  return kit.post("/oauth2/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, ...extra }, client.basic);
}

describe("authorization_code", () => {
  it("exchanges a code once for the platform's token response, not cached", async () => {
    const client = await kit.client();
    const { user } = await makeUser(app.db);
    const code = await kit.approve(client.id, user.id, ["identify", "guilds"]);
    const res = await exchange(client, code);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: "Bearer",
      expires_in: 604800,
      refresh_token: expect.any(String),
      scope: "identify guilds",
    });
    const me = await app.as(bearer(res.body.access_token)).get("/users/@me");
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
    // Reachable without the version too, as the platform's documentation names it.
    const unversioned = await app.dispatch(
      new Request("http://guildhall.test/api/oauth2/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: client.basic },
        body: new URLSearchParams({ grant_type: "authorization_code", code: await kit.approve(client.id, user.id, ["identify"]), redirect_uri: REDIRECT_URI }),
      }),
    );
    expect(unversioned.status).toBe(200);
  });

  it("authenticates the client in the form too (client_secret_post)", async () => {
    const client = await kit.client();
    const { user } = await makeUser(app.db);
    const code = await kit.approve(client.id, user.id, ["identify"]);
    const res = await kit.post("/oauth2/token", {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      client_id: client.id,
      client_secret: client.secret,
    });
    expect(res.status).toBe(200);
  });

  it("refuses a code bound to another redirect URI, client, or one unknown", async () => {
    const client = await kit.client();
    const other = await kit.client();
    const { user } = await makeUser(app.db);
    const wrongUri = await exchange(client, await kit.approve(client.id, user.id, ["identify"]), { redirect_uri: "https://game.example/other" });
    expect(wrongUri.status).toBe(400);
    expect(wrongUri.body).toEqual({ error: "invalid_grant", error_description: "redirect_uri does not match the authorization request's." });
    const otherClient = await exchange(other, await kit.approve(client.id, user.id, ["identify"]));
    expect(otherClient.body.error).toBe("invalid_grant");
    expect((await exchange(client, "not-a-code")).body.error).toBe("invalid_grant");
    // A code lives CODE_LIFETIME_MS; one past it is refused.
    const late = await kit.approve(client.id, user.id, ["identify"]);
    const row = await app.db.oAuth2Code.findUniqueOrThrow({ where: { id: secretDigest(late) } });
    expect(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - CODE_LIFETIME_MS)).toBeLessThan(1000);
    await app.db.oAuth2Code.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await exchange(client, late)).body).toEqual({ error: "invalid_grant", error_description: "The authorization code is unknown or expired." });
    // A code presented wrongly is spent: the right request after it fails too.
    const spent = await kit.approve(client.id, user.id, ["identify"]);
    expect((await exchange(client, spent, { redirect_uri: "https://game.example/other" })).body.error).toBe("invalid_grant");
    expect((await exchange(client, spent)).body.error).toBe("invalid_grant");
  });

  it("revokes the token a replayed code gave", async () => {
    const client = await kit.client();
    const { user } = await makeUser(app.db);
    const code = await kit.approve(client.id, user.id, ["identify"]);
    const first = await exchange(client, code);
    expect(first.status).toBe(200);
    const replay = await exchange(client, code);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    expect((await app.as(bearer(first.body.access_token)).get("/users/@me")).status).toBe(401);
    const refresh = await kit.post("/oauth2/token", { grant_type: "refresh_token", refresh_token: first.body.refresh_token }, client.basic);
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("checks PKCE (S256) and lets a public client in with its id alone", async () => {
    const client = await kit.client({ publicClient: true });
    const { user } = await makeUser(app.db);
    const withPkce = () => kit.approve(client.id, user.id, ["identify"], { codeChallenge: s256Challenge(VERIFIER) });
    const asPublic = (code: string, extra: Record<string, string> = {}) =>
      kit.post("/oauth2/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, client_id: client.id, ...extra });

    const good = await asPublic(await withPkce(), { code_verifier: VERIFIER });
    expect(good.status).toBe(200);
    const wrong = await asPublic(await withPkce(), { code_verifier: `${VERIFIER}x` });
    expect(wrong.body).toEqual({ error: "invalid_grant", error_description: "code_verifier does not match the code_challenge." });
    expect((await asPublic(await withPkce())).body.error).toBe("invalid_grant");
    // A public client without PKCE has nothing to prove the code is its own.
    const bare = await asPublic(await kit.approve(client.id, user.id, ["identify"]));
    expect(bare.body).toEqual({ error: "invalid_grant", error_description: "A public client must use PKCE." });
    // And its refresh token works without a secret.
    const refreshed = await kit.post("/oauth2/token", { grant_type: "refresh_token", refresh_token: good.body.refresh_token, client_id: client.id });
    expect(refreshed.status).toBe(200);
  });

  it("answers the guild the bot joined and the incoming webhook, with its url", async () => {
    const client = await kit.client();
    const { user } = await makeUser(app.db);
    const guild = await makeGuild(app.db, client.actor);
    const channels = await app.as(bot(client.token)).get(`/guilds/${guild.id}/channels`);
    const text = (channels.body as { id: string; type: number }[]).find((channel) => channel.type === ChannelType.GuildText)!;
    const hook = await app.as(bot(client.token)).post(`/channels/${text.id}/webhooks`, { name: "incoming" });
    const code = await kit.approve(client.id, user.id, ["bot", "webhook.incoming"], { guildId: guild.id, webhookId: hook.body.id });
    const res = await exchange(client, code);
    expect(res.status).toBe(200);
    expect(res.body.guild).toMatchObject({ id: guild.id, name: guild.name });
    expect(res.body.webhook).toMatchObject({ id: hook.body.id, token: hook.body.token, url: hook.body.url, channel_id: text.id });
  });
});

describe("client authentication", () => {
  it("is invalid_client (401, with a Basic challenge) when missing or wrong", async () => {
    const client = await kit.client();
    const { user } = await makeUser(app.db);
    const params = { grant_type: "authorization_code", code: await kit.approve(client.id, user.id, ["identify"]), redirect_uri: REDIRECT_URI };
    const wrongBasic = `Basic ${Buffer.from(`${client.id}:wrong`).toString("base64")}`;
    for (const [params2, authorization] of [
      [params, undefined],
      [params, wrongBasic],
      [{ ...params, client_id: client.id, client_secret: "wrong" }, undefined],
      // A confidential client cannot leave its secret out.
      [{ ...params, client_id: client.id }, undefined],
      [{ ...params, client_id: "999" }, undefined],
    ] as const) {
      const res = await kit.post("/oauth2/token", params2, authorization);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="oauth2"');
      expect(res.body.error).toBe("invalid_client");
    }
  });

  it("is invalid_client for an application whose secret was never set", async () => {
    const fresh = await makeBot(app.db);
    const res = await kit.post("/oauth2/token", { grant_type: "client_credentials", client_id: fresh.application.id, client_secret: "anything" });
    expect(res.status).toBe(401);
    expect(res.body.error_description).toBe("This client has no secret yet: reset it first.");
  });
});

describe("malformed token requests", () => {
  it("answers RFC 6749 errors, never the platform's 50035", async () => {
    const client = await kit.client();
    const json = await app.as(client.basic).post("/oauth2/token", { grant_type: "client_credentials" });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe("invalid_request");
    expect(json.headers.get("cache-control")).toBe("no-store");
    const multipart = await app.as(client.basic).post("/oauth2/token", undefined, {
      headers: { "content-type": "multipart/form-data; boundary=x" },
      rawBody: '--x\r\nContent-Disposition: form-data; name="grant_type"\r\n\r\nclient_credentials\r\n--x--\r\n',
    });
    expect(multipart.body.error).toBe("invalid_request");
    expect((await kit.post("/oauth2/token", {}, client.basic)).body).toEqual({
      error: "invalid_request",
      error_description: "The parameter grant_type is required.",
    });
    expect((await kit.post("/oauth2/token", { grant_type: "password" }, client.basic)).body.error).toBe("unsupported_grant_type");
    expect((await kit.post("/oauth2/token", { grant_type: "__proto__" }, client.basic)).body.error).toBe("unsupported_grant_type");
    expect((await kit.post("/oauth2/token", { grant_type: "authorization_code" }, client.basic)).body.error).toBe("invalid_request");
    expect((await kit.post("/oauth2/token", { grant_type: "refresh_token" }, client.basic)).body.error).toBe("invalid_request");
  });
});

describe("refresh_token", () => {
  it("rotates the pair and may narrow the scope, never widen it", async () => {
    const client = await kit.client();
    const { user } = await makeUser(app.db);
    const first = await exchange(client, await kit.approve(client.id, user.id, ["identify", "guilds"]));
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      kit.post("/oauth2/token", { grant_type: "refresh_token", refresh_token: token, ...extra }, client.basic);

    const wider = await refresh(first.body.refresh_token, { scope: "identify email" });
    expect(wider.body).toEqual({ error: "invalid_scope", error_description: "The refresh token was not granted: email" });
    const second = await refresh(first.body.refresh_token, { scope: "identify" });
    expect(second.status).toBe(200);
    expect(second.headers.get("cache-control")).toBe("no-store");
    expect(second.body).toMatchObject({ token_type: "Bearer", expires_in: 604800, scope: "identify", refresh_token: expect.any(String) });
    // The old pair is gone; the new one works.
    expect((await refresh(first.body.refresh_token)).body.error).toBe("invalid_grant");
    expect((await app.as(bearer(first.body.access_token)).get("/users/@me")).status).toBe(401);
    expect((await app.as(bearer(second.body.access_token)).get("/users/@me")).status).toBe(200);
    expect((await app.as(bearer(second.body.access_token)).get("/users/@me/guilds")).status).toBe(403);
    // Another client cannot use it.
    const other = await kit.client();
    expect((await kit.post("/oauth2/token", { grant_type: "refresh_token", refresh_token: second.body.refresh_token }, other.basic)).body.error).toBe(
      "invalid_grant",
    );
  });

  it("is invalid_grant once the user deauthorized the application", async () => {
    const client = await kit.client();
    const { user } = await makeUser(app.db);
    const tokens = await exchange(client, await kit.approve(client.id, user.id, ["identify"]));
    expect(await deauthorize({ db: app.db, actor: null }, { applicationId: client.id, userId: user.id })).toBe(true);
    const res = await kit.post("/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token }, client.basic);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_grant");
    expect((await app.as(bearer(tokens.body.access_token)).get("/users/@me")).status).toBe(401);
  });

  it("is refused as deprecated for a provisional account's token", async () => {
    const client = await kit.client();
    const { user } = await makeUser(app.db);
    await app.db.user.update({ where: { id: user.id }, data: { provisionalApplicationId: client.id } });
    const tokens = await exchange(client, await kit.approve(client.id, user.id, ["identify", "sdk.social_layer"]));
    const res = await kit.post("/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token }, client.basic);
    expect(res.body).toEqual({ error: "invalid_grant", error_description: PROVISIONAL_REFRESH_DEPRECATED });
    // Refused before anything changed: the access token still works.
    expect((await app.as(bearer(tokens.body.access_token)).get("/users/@me")).status).toBe(200);
  });
});

describe("client_credentials", () => {
  it("gives a confidential client a token for its owner, without a refresh token", async () => {
    const client = await kit.client();
    const res = await kit.post("/oauth2/token", { grant_type: "client_credentials" }, client.basic);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: "Bearer", expires_in: 604800, scope: "identify" });
    const me = await app.as(bearer(res.body.access_token)).get("/users/@me");
    expect(me.body.id).toBe(client.application.ownerId);
    const guilds = await kit.post("/oauth2/token", { grant_type: "client_credentials", scope: "identify guilds" }, client.basic);
    expect(guilds.body.scope).toBe("identify guilds");
  });

  it("refuses scopes that need a person, unknown ones, and public clients", async () => {
    const client = await kit.client();
    for (const scope of ["bot", "webhook.incoming", "guilds.join", "identify nonsense", "identify.premium", "rpc"]) {
      const res = await kit.post("/oauth2/token", { grant_type: "client_credentials", scope }, client.basic);
      expect(res.body.error, scope).toBe("invalid_scope");
    }
    const publicClient = await kit.client({ publicClient: true });
    const res = await kit.post("/oauth2/token", { grant_type: "client_credentials", client_id: publicClient.id });
    expect(res.body.error).toBe("unauthorized_client");
  });
});

describe("revocation (RFC 7009)", () => {
  it("revokes every token of the authorization from either token, and answers 200 for tokens it does not know", async () => {
    const client = await kit.client();
    const { user } = await makeUser(app.db);
    const first = await exchange(client, await kit.approve(client.id, user.id, ["identify"]));
    const second = await exchange(client, await kit.approve(client.id, user.id, ["guilds"]));
    const res = await kit.post("/oauth2/token/revoke", { token: first.body.access_token, token_type_hint: "access_token" }, client.basic);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    for (const token of [first.body.access_token, second.body.access_token]) expect((await app.as(bearer(token)).get("/users/@me")).status).toBe(401);
    const refresh = await kit.post("/oauth2/token", { grant_type: "refresh_token", refresh_token: second.body.refresh_token }, client.basic);
    expect(refresh.body.error).toBe("invalid_grant");

    const third = await exchange(client, await kit.approve(client.id, user.id, ["identify"]));
    expect((await kit.post("/oauth2/token/revoke", { token: third.body.refresh_token }, client.basic)).status).toBe(200);
    expect((await app.as(bearer(third.body.access_token)).get("/users/@me")).status).toBe(401);

    expect((await kit.post("/oauth2/token/revoke", { token: "unknown" }, client.basic)).status).toBe(200);
    expect((await kit.post("/oauth2/token/revoke", {}, client.basic)).body.error).toBe("invalid_request");
    expect((await kit.post("/oauth2/token/revoke", { token: "unknown" })).status).toBe(401);
  });

  it("leaves another client's tokens alone, and revokes a client credentials token itself", async () => {
    const client = await kit.client();
    const other = await kit.client();
    const { user } = await makeUser(app.db);
    const tokens = await exchange(client, await kit.approve(client.id, user.id, ["identify"]));
    expect((await kit.post("/oauth2/token/revoke", { token: tokens.body.access_token }, other.basic)).status).toBe(200);
    expect((await app.as(bearer(tokens.body.access_token)).get("/users/@me")).status).toBe(200);
    const own = await kit.post("/oauth2/token", { grant_type: "client_credentials" }, client.basic);
    expect((await kit.post("/oauth2/token/revoke", { token: own.body.access_token }, client.basic)).status).toBe(200);
    expect((await app.as(bearer(own.body.access_token)).get("/users/@me")).status).toBe(401);
  });
});
