import { describe, expect, it } from "vitest";
import { decideAuthorize, redirectWith, type AuthorizeClient, type AuthorizeDecision } from "./authorize-request.ts";

const ISSUER = "https://hall.example";
const CALLBACK = "https://app.example/callback";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

const client: AuthorizeClient = {
  id: "100",
  ownerId: "1",
  redirectUris: [CALLBACK],
  publicClient: false,
  botPublic: true,
  botRequireCodeGrant: false,
  partner: false,
};

function decide(query: Record<string, string>, options: { client?: Partial<AuthorizeClient> | null; userId?: string; granted?: string[] } = {}) {
  return decideAuthorize({
    query: { client_id: "100", ...query },
    client: options.client === null ? null : { ...client, ...options.client },
    userId: options.userId ?? "2",
    grantedScopes: options.granted ?? [],
    issuer: ISSUER,
  });
}

/** The redirect's answer: query for the code flow, fragment for the implicit grant. */
function answerOf(decision: AuthorizeDecision): URLSearchParams {
  if (decision.kind !== "redirect") throw new Error(`expected a redirect, got ${JSON.stringify(decision)}`);
  const url = new URL(decision.redirectTo);
  expect(url.origin + url.pathname).toBe(CALLBACK);
  return url.hash ? new URLSearchParams(url.hash.slice(1)) : url.searchParams;
}

function expectRedirectError(decision: AuthorizeDecision, error: string, state: string | null = "xyz") {
  const answer = answerOf(decision);
  expect(answer.get("error")).toBe(error);
  expect(answer.get("error_description")).toBeTruthy();
  expect(answer.get("iss")).toBe(ISSUER);
  expect(answer.get("state")).toBe(state);
}

const code = { response_type: "code", scope: "identify", redirect_uri: CALLBACK, state: "xyz" };

describe("the authorize request", () => {
  it("asks for consent for a valid code request", () => {
    const decision = decide({ ...code, nonce: "n-1" });
    expect(decision).toMatchObject({
      kind: "consent",
      skipConsent: false,
      request: { responseType: "code", scopes: ["identify"], state: "xyz", redirectUri: CALLBACK, redirectTarget: CALLBACK, nonce: "n-1", prompt: "consent" },
    });
  });

  it("shows an error page for an unknown client_id, never redirecting", () => {
    expect(decide(code, { client: null })).toMatchObject({ kind: "error_page", error: "invalid_request" });
    expect(decide({ ...code, client_id: "999" })).toMatchObject({ kind: "error_page" });
  });

  it("shows an error page for an unregistered redirect_uri (exact match only)", () => {
    expect(decide({ ...code, redirect_uri: "https://evil.example/callback" })).toMatchObject({ kind: "error_page" });
    expect(decide({ ...code, redirect_uri: `${CALLBACK}/` })).toMatchObject({ kind: "error_page" });
    expect(decide({ ...code, redirect_uri: `${CALLBACK}?x=1` })).toMatchObject({ kind: "error_page" });
  });

  it("uses the only registered redirect URI when none is named, and shows an error page when there is not exactly one", () => {
    const { redirect_uri: _, ...withoutUri } = code;
    expect(decide(withoutUri)).toMatchObject({ kind: "consent", request: { redirectUri: null, redirectTarget: CALLBACK } });
    expect(decide(withoutUri, { client: { redirectUris: [] } })).toMatchObject({ kind: "error_page" });
    expect(decide(withoutUri, { client: { redirectUris: [CALLBACK, "https://app.example/other"] } })).toMatchObject({ kind: "error_page" });
  });

  it("redirects unsupported_response_type and a missing response_type with state and iss", () => {
    expectRedirectError(decide({ ...code, response_type: "id_token" }), "unsupported_response_type");
    const { response_type: _, ...withoutType } = code;
    expectRedirectError(decide(withoutType), "invalid_request");
  });

  it("redirects invalid_scope for unknown, approval-only and partner-only scopes, and for none", () => {
    expectRedirectError(decide({ ...code, scope: "identify nonsense" }), "invalid_scope");
    expectRedirectError(decide({ ...code, scope: "rpc" }), "invalid_scope");
    expectRedirectError(decide({ ...code, scope: "identify.premium" }), "invalid_scope");
    expect(decide({ ...code, scope: "identify.premium" }, { client: { partner: true } })).toMatchObject({ kind: "consent" });
    expectRedirectError(decide({ ...code, scope: "" }), "invalid_scope");
  });

  it("leaves state out of the redirect when the request had none, iss always in", () => {
    const { state: _, ...withoutState } = code;
    expectRedirectError(decide({ ...withoutState, scope: "nonsense" }), "invalid_scope", null);
  });

  it("refuses a prompt it does not know", () => {
    expectRedirectError(decide({ ...code, prompt: "login" }), "invalid_request");
  });

  it("takes PKCE with S256 only, and requires it of public clients", () => {
    expect(decide({ ...code, code_challenge: CHALLENGE, code_challenge_method: "S256" })).toMatchObject({
      kind: "consent",
      request: { codeChallenge: CHALLENGE, codeChallengeMethod: "S256" },
    });
    expectRedirectError(decide({ ...code, code_challenge: CHALLENGE, code_challenge_method: "plain" }), "invalid_request");
    expectRedirectError(decide({ ...code, code_challenge: CHALLENGE }), "invalid_request");
    expectRedirectError(decide({ ...code, code_challenge: "short", code_challenge_method: "S256" }), "invalid_request");
    expectRedirectError(decide(code, { client: { publicClient: true } }), "invalid_request");
    expect(decide({ ...code, code_challenge: CHALLENGE, code_challenge_method: "S256" }, { client: { publicClient: true } })).toMatchObject({
      kind: "consent",
    });
  });

  it("answers the implicit grant's errors in the fragment", () => {
    const decision = decide({ ...code, response_type: "token", scope: "nonsense" });
    if (decision.kind !== "redirect") throw new Error("expected a redirect");
    expect(new URL(decision.redirectTo).search).toBe("");
    expectRedirectError(decision, "invalid_scope");
    expectRedirectError(decide({ ...code, response_type: "token", code_challenge: CHALLENGE, code_challenge_method: "S256" }), "invalid_request");
  });

  it("does not install bots or webhooks through the implicit grant", () => {
    expectRedirectError(decide({ ...code, response_type: "token", scope: "webhook.incoming" }), "unsupported_response_type");
  });

  it("takes a bot install link without a redirect, ending on the page", () => {
    const decision = decide(
      { scope: "bot applications.commands", permissions: "2048", guild_id: "55", disable_guild_select: "true" },
      { client: { redirectUris: [] } },
    );
    expect(decision).toMatchObject({
      kind: "consent",
      request: { responseType: null, redirectTarget: null, permissions: 2048n, guildId: "55", disableGuildSelect: true },
    });
  });

  it("shows errors of a redirect-less install link on the page", () => {
    expect(decide({ scope: "bot", permissions: "-1" })).toMatchObject({ kind: "error_page", error: "invalid_request" });
    expect(decide({ scope: "bot", guild_id: "not-a-guild" })).toMatchObject({ kind: "error_page", error: "invalid_request" });
  });

  it("redirects invalid permissions, guild_id and channel_id when it can", () => {
    expectRedirectError(decide({ ...code, scope: "bot", permissions: "0x10" }), "invalid_request");
    expectRedirectError(decide({ ...code, scope: "bot", guild_id: "abc" }), "invalid_request");
    expectRedirectError(decide({ ...code, scope: "webhook.incoming", channel_id: "abc" }), "invalid_request");
  });

  it("forces the code flow with a redirect when the bot requires the code grant", () => {
    const requireCode = { client: { botRequireCodeGrant: true, redirectUris: [] } };
    expect(decide({ scope: "bot" }, requireCode)).toMatchObject({ kind: "error_page" });
    expect(decide({ scope: "bot" }, { client: { botRequireCodeGrant: true } })).toMatchObject({ kind: "redirect" });
    expectRedirectError(decide({ scope: "bot", redirect_uri: CALLBACK, state: "xyz" }, { client: { botRequireCodeGrant: true } }), "invalid_request");
    expect(decide({ ...code, scope: "bot" }, { client: { botRequireCodeGrant: true } })).toMatchObject({ kind: "consent", request: { responseType: "code" } });
  });

  it("lets only the owner add a private bot", () => {
    expectRedirectError(decide({ ...code, scope: "bot" }, { client: { botPublic: false } }), "access_denied");
    expect(decide({ scope: "bot" }, { client: { botPublic: false } })).toMatchObject({ kind: "error_page", error: "access_denied" });
    expect(decide({ ...code, scope: "bot" }, { client: { botPublic: false }, userId: "1" })).toMatchObject({ kind: "consent" });
  });

  it("ignores permissions unless a bot is asked", () => {
    expect(decide({ ...code, permissions: "8" })).toMatchObject({ kind: "consent", request: { permissions: 0n } });
  });

  it("skips the page for prompt=none only when every scope was granted and nothing is installed", () => {
    expect(decide({ ...code, scope: "identify guilds", prompt: "none" }, { granted: ["identify", "guilds", "email"] })).toMatchObject({ skipConsent: true });
    expect(decide({ ...code, scope: "identify guilds", prompt: "none" }, { granted: ["identify"] })).toMatchObject({ skipConsent: false });
    expect(decide({ ...code, scope: "identify guilds" }, { granted: ["identify", "guilds"] })).toMatchObject({ skipConsent: false });
    expect(decide({ ...code, scope: "identify webhook.incoming", prompt: "none" }, { granted: ["identify", "webhook.incoming"] })).toMatchObject({
      skipConsent: false,
    });
  });

  it("puts the answer in the query for codes and in the fragment for tokens, keeping the URI's own query", () => {
    const codeRedirect = new URL(redirectWith(`${CALLBACK}?app=1`, { responseType: "code", state: "s" }, ISSUER, { code: "abc" }));
    expect(Object.fromEntries(codeRedirect.searchParams)).toEqual({ app: "1", code: "abc", state: "s", iss: ISSUER });
    const tokenRedirect = new URL(redirectWith(CALLBACK, { responseType: "token", state: null }, ISSUER, { access_token: "t" }));
    expect(Object.fromEntries(new URLSearchParams(tokenRedirect.hash.slice(1)))).toEqual({ access_token: "t", iss: ISSUER });
  });
});
