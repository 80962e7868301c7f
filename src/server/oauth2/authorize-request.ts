// The authorize request (/oauth2/authorize) as one pure decision: an error page that never
// redirects, a redirect back to the client with an error, or the consent page. The page's
// describe, approve and deny all decide from the same query, so nothing the browser holds
// between them is trusted.
import { parsePermissions, isPermissionString } from "~/server/permissions/permissions.ts";
import type { OAuth2ErrorCode } from "./oauth2-error.ts";
import { parseScopeList, scopeDenial } from "./scopes.ts";

/** Scopes that install something into a guild: asking for one always shows the page. */
export const INSTALL_SCOPES = ["bot", "applications.commands", "webhook.incoming"] as const;
/** Scopes an install link may ask for without a redirect (the bot's own "Add to server" link). */
const REDIRECTLESS_SCOPES: ReadonlySet<string> = new Set(["bot", "applications.commands"]);

/** RFC 7636 4.1: 43 to 128 unreserved characters (an S256 challenge is 43). */
const CODE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;
const SNOWFLAKE = /^\d{1,20}$/;

/** The application's settings the decision reads. */
export type AuthorizeClient = {
  id: string;
  ownerId: string;
  redirectUris: readonly string[];
  publicClient: boolean;
  botPublic: boolean;
  botRequireCodeGrant: boolean;
  partner: boolean;
};

/** A request the person may approve, with where its answer goes. */
export type AuthorizeRequest = {
  clientId: string;
  /** null for an install link without a redirect (it ends on the page). */
  responseType: "code" | "token" | null;
  scopes: string[];
  state: string | null;
  /** The redirect_uri as the request named it (the code is bound to it), null when it named none. */
  redirectUri: string | null;
  /** Where the answer goes: the named URI, or the only registered one; null when nowhere. */
  redirectTarget: string | null;
  prompt: "consent" | "none";
  codeChallenge: string | null;
  codeChallengeMethod: "S256" | null;
  nonce: string | null;
  /** The bot permissions asked for (0 when none were). */
  permissions: bigint;
  guildId: string | null;
  disableGuildSelect: boolean;
  channelId: string | null;
};

export type AuthorizeDecision =
  /** Nowhere trustworthy to send the answer: the page shows the error and never redirects. */
  | { kind: "error_page"; error: OAuth2ErrorCode; description: string }
  /** The client's redirect with an error (RFC 6749 4.1.2.1), `state` and `iss`. */
  | { kind: "redirect"; redirectTo: string }
  /** Ask the person; skipConsent when prompt=none and everything asked was granted before. */
  | { kind: "consent"; request: AuthorizeRequest; skipConsent: boolean };

type Query = Readonly<Record<string, string | undefined>>;

/**
 * A redirect to the client carrying `params`, `state` and `iss` (RFC 9207, exactly the issuer):
 * in the query for the code flow, in the fragment for the implicit grant (RFC 6749 4.2.2).
 */
export function redirectWith(
  target: string,
  request: { responseType: "code" | "token" | null; state: string | null },
  issuer: string,
  params: Record<string, string>,
): string {
  const answer = new URLSearchParams(params);
  if (request.state !== null) answer.set("state", request.state);
  answer.set("iss", issuer);
  const url = new URL(target);
  if (request.responseType === "token") {
    url.hash = answer.toString();
    return url.toString();
  }
  for (const [key, value] of answer) url.searchParams.append(key, value);
  return url.toString();
}

/** The scopes the request asks that install something (a bot, commands, a webhook). */
function installScopesOf(scopes: readonly string[]): string[] {
  return scopes.filter((scope) => (INSTALL_SCOPES as readonly string[]).includes(scope));
}

/**
 * Decides an authorize request for a signed-in user from its query, the application it names
 * (null when the client_id is unknown) and the scopes the user granted it before.
 */
export function decideAuthorize(input: {
  query: Query;
  client: AuthorizeClient | null;
  userId: string;
  grantedScopes: readonly string[];
  issuer: string;
}): AuthorizeDecision {
  const { query, client, issuer } = input;
  if (!client || query.client_id !== client.id) return errorPage("invalid_request", "Unknown application: the link's client_id names no application here.");

  const scopes = parseScopeList(query.scope ?? "");
  const rawResponseType = query.response_type ?? null;
  const redirectUri = query.redirect_uri ?? null;
  if (redirectUri !== null && !client.redirectUris.includes(redirectUri)) {
    return errorPage("invalid_request", "The redirect_uri is not one the application registered, so this request cannot be answered.");
  }
  const installOnly = scopes.length > 0 && scopes.every((scope) => REDIRECTLESS_SCOPES.has(scope));
  const needsRedirect = !installOnly || rawResponseType !== null || client.botRequireCodeGrant;
  let redirectTarget = redirectUri;
  if (redirectTarget === null && needsRedirect) {
    if (client.redirectUris.length !== 1) {
      return errorPage("invalid_request", "The request names no redirect_uri, and the application does not have exactly one registered.");
    }
    redirectTarget = client.redirectUris[0]!;
  }

  const responseType = rawResponseType === "code" || rawResponseType === "token" ? rawResponseType : null;
  const state = query.state ?? null;
  // Errors go back to the client where it can be told; an install link without one ends on the page.
  const fail = (error: OAuth2ErrorCode, description: string): AuthorizeDecision =>
    redirectTarget === null
      ? errorPage(error, description)
      : { kind: "redirect", redirectTo: redirectWith(redirectTarget, { responseType, state }, issuer, { error, error_description: description }) };

  if (rawResponseType !== null && responseType === null) return fail("unsupported_response_type", `Unsupported response_type: ${rawResponseType}.`);
  if (responseType === null && needsRedirect) return fail("invalid_request", "response_type is required (code or token).");
  const scopeProblem = scopeDenial(scopes, client);
  if (scopeProblem) return fail("invalid_scope", scopeProblem);

  const prompt = query.prompt ?? "consent";
  if (prompt !== "consent" && prompt !== "none") return fail("invalid_request", `Unsupported prompt: ${prompt}.`);

  const codeChallenge = query.code_challenge ?? null;
  const method = query.code_challenge_method ?? null;
  if (codeChallenge !== null || method !== null) {
    if (responseType !== "code") return fail("invalid_request", "PKCE applies to the code flow (response_type=code) only.");
    if (method !== "S256") return fail("invalid_request", "code_challenge_method must be S256.");
    if (codeChallenge === null || !CODE_CHALLENGE.test(codeChallenge))
      return fail("invalid_request", "code_challenge must be 43 to 128 unreserved characters.");
  }
  if (client.publicClient && responseType === "code" && codeChallenge === null) {
    return fail("invalid_request", "This application is a public client: the code flow needs PKCE (code_challenge with S256).");
  }

  const asksBot = scopes.includes("bot");
  if (asksBot && client.botRequireCodeGrant && responseType !== "code") {
    return fail("invalid_request", "This bot requires the code grant: response_type=code with a redirect_uri.");
  }
  if (asksBot && !client.botPublic && input.userId !== client.ownerId) {
    return fail("access_denied", "This bot is private: only its owner can add it.");
  }
  if (responseType === "token" && installScopesOf(scopes).length > 0) {
    return fail("unsupported_response_type", "Bots and webhooks are added through the code flow, not the implicit grant.");
  }

  const permissions = query.permissions ?? "0";
  if (!isPermissionString(permissions)) return fail("invalid_request", "permissions must be a permission bitfield (a decimal integer).");
  const guildId = query.guild_id ?? null;
  if (guildId !== null && !SNOWFLAKE.test(guildId)) return fail("invalid_request", "guild_id must be a snowflake.");
  const channelId = query.channel_id ?? null;
  if (channelId !== null && !SNOWFLAKE.test(channelId)) return fail("invalid_request", "channel_id must be a snowflake.");

  const request: AuthorizeRequest = {
    clientId: client.id,
    responseType,
    scopes,
    state,
    redirectUri,
    redirectTarget,
    prompt,
    codeChallenge,
    codeChallengeMethod: codeChallenge === null ? null : "S256",
    nonce: query.nonce ?? null,
    permissions: asksBot ? parsePermissions(permissions) : 0n,
    guildId,
    disableGuildSelect: guildId !== null && query.disable_guild_select === "true",
    channelId,
  };
  const granted = new Set(input.grantedScopes);
  const skipConsent = prompt === "none" && installScopesOf(scopes).length === 0 && scopes.every((scope) => granted.has(scope));
  return { kind: "consent", request, skipConsent };
}

function errorPage(error: OAuth2ErrorCode, description: string): AuthorizeDecision {
  return { kind: "error_page", error, description };
}
