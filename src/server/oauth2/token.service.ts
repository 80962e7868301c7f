// The token endpoint (RFC 6749 3.2) and token revocation (RFC 7009): the client is
// authenticated, then the grant its grant_type names answers. A new grant is a row of GRANTS.
import type { Db } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { findStoredToken, revokeTokensIn } from "~/server/auth/tokens.service.ts";
import { authenticateClient } from "./client-auth.ts";
import { revokeAuthorizationTokens } from "./grants.ts";
import { authorizationCodeGrant } from "./grants/authorization-code.ts";
import { clientCredentialsGrant } from "./grants/client-credentials.ts";
import type { Grant, TokenResponse } from "./grants/grant.ts";
import { refreshTokenGrant } from "./grants/refresh-token.ts";
import { OAuth2Error } from "./oauth2-error.ts";
import { readTokenForm, requiredParam } from "./token-request.ts";

const GRANTS: Readonly<Record<string, Grant>> = {
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
  client_credentials: clientCredentialsGrant,
};

/** What the endpoints read from a request: its form, and the Authorization and Content-Type headers. */
export type TokenEndpointRequest = { body: unknown; authorization: string | null; contentType: string | null };

/** POST /oauth2/token. */
export async function exchangeToken(db: Db, request: TokenEndpointRequest): Promise<TokenResponse> {
  const form = readTokenForm(request.body, request.contentType);
  const client = await authenticateClient(db, request.authorization, form);
  const grantType = requiredParam(form, "grant_type");
  const grant = Object.hasOwn(GRANTS, grantType) ? GRANTS[grantType] : undefined;
  if (!grant) throw new OAuth2Error("unsupported_grant_type", `The grant type ${grantType} is not supported.`);
  return grant({ db, client, form });
}

/**
 * POST /oauth2/token/revoke: an access or refresh token of this client revokes every token of
 * its authorization (a client credentials token, itself). Unknown tokens, and other clients'
 * tokens, are answered the same, so the answer tells nothing about them (RFC 7009 2.2).
 */
export async function revokeToken(db: Db, request: TokenEndpointRequest): Promise<void> {
  const form = readTokenForm(request.body, request.contentType);
  const client = await authenticateClient(db, request.authorization, form);
  const token = requiredParam(form, "token");
  await runChange({ db, actor: null }, async (change) => {
    const row = await findStoredToken(change.tx, token, ["bearer", "refresh"]);
    if (row?.applicationId !== client.application.id) return;
    if (row.authorizationId) return revokeAuthorizationTokens(change, row.authorizationId);
    await revokeTokensIn(change, { id: row.id });
  });
}
