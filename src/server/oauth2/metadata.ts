// What a client library discovers before it talks to the authorization server: RFC 8414's
// metadata and OpenID Connect's discovery document, from one pure function of the issuer.
// server.ts serves both at their well-known paths, outside /api, with or without the dashboard.
import { env } from "~/env.ts";
import type { HttpHandler, HttpResponse } from "~/server/http/http-types.ts";
import { grantableScopes } from "./scopes.ts";
import { ID_TOKEN_ALGORITHM } from "./signing-key.ts";

/** The issuer: the public origin, without a trailing slash (RFC 9207 compares it exactly). */
export function oauth2Issuer(): string {
  return env().PUBLIC_BASE_URL.replace(/\/+$/, "");
}

/** Scopes an application can be granted here (by any application, or partners): not those the platform approves by hand. */
export const GRANTABLE_SCOPES = grantableScopes({ partner: true });

const CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"];

/** The claims an id_token or userinfo answer may carry (id-token.ts). */
const CLAIMS = ["iss", "sub", "aud", "exp", "iat", "nonce", "at_hash", "preferred_username", "nickname", "picture", "email", "email_verified"];

const WELL_KNOWN_PATHS = {
  authorizationServer: "/.well-known/oauth-authorization-server",
  openidConfiguration: "/.well-known/openid-configuration",
} as const;

/** RFC 8414 metadata for an issuer. */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth2/authorize`,
    token_endpoint: `${issuer}/api/oauth2/token`,
    revocation_endpoint: `${issuer}/api/oauth2/token/revoke`,
    jwks_uri: `${issuer}/api/oauth2/keys`,
    response_types_supported: ["code", "token"],
    response_modes_supported: ["query", "fragment"],
    grant_types_supported: ["authorization_code", "implicit", "refresh_token", "client_credentials"],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    code_challenge_methods_supported: ["S256"],
    scopes_supported: GRANTABLE_SCOPES,
    authorization_response_iss_parameter_supported: true,
  };
}

/** OpenID Connect Discovery 1.0: the same, with userinfo and what id_tokens hold. */
export function openidConfiguration(issuer: string) {
  return {
    ...authorizationServerMetadata(issuer),
    userinfo_endpoint: `${issuer}/api/oauth2/userinfo`,
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [ID_TOKEN_ALGORITHM],
    claims_supported: CLAIMS,
  };
}

/** The document at a well-known path, or null when the path is not one of them. */
export function wellKnownDocument(pathname: string, issuer: string): object | null {
  if (pathname === WELL_KNOWN_PATHS.authorizationServer) return authorizationServerMetadata(issuer);
  if (pathname === WELL_KNOWN_PATHS.openidConfiguration) return openidConfiguration(issuer);
  return null;
}

/** Whether a request URL (path and query) is one of the documents above; other well-known paths stay Next's. */
export function isWellKnownPath(url: string): boolean {
  const queryStart = url.indexOf("?");
  return (Object.values(WELL_KNOWN_PATHS) as string[]).includes(queryStart < 0 ? url : url.slice(0, queryStart));
}

/** Serves the well-known documents (GET and HEAD), readable from any origin as discovery must be. */
export const serveWellKnown: HttpHandler = (request) => Promise.resolve(wellKnownAnswer(request.method, request.url));

function wellKnownAnswer(method: string, url: string): HttpResponse {
  const queryStart = url.indexOf("?");
  const document = wellKnownDocument(queryStart < 0 ? url : url.slice(0, queryStart), oauth2Issuer());
  if (!document) return { status: 404, headers: { "content-type": "text/plain" }, body: "Not Found" };
  if (method !== "GET" && method !== "HEAD") return { status: 405, headers: { "content-type": "text/plain", allow: "GET, HEAD" }, body: "Method Not Allowed" };
  const headers = { "content-type": "application/json", "cache-control": "public, max-age=3600", "access-control-allow-origin": "*" };
  return { status: 200, headers, body: method === "HEAD" ? null : JSON.stringify(document) };
}
