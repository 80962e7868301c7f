// grant_type=client_credentials (RFC 6749 4.4): a confidential client gets a token for its
// owner, for testing and its own tools; no refresh token and no authorization row, since no
// person approved it. Scopes that act on someone else's behalf need a person's approval.
import { runChange } from "~/server/events/change.ts";
import { issueTokenPair } from "../grants.ts";
import { OAuth2Error } from "../oauth2-error.ts";
import { parseScopeList, scopeDenial } from "../scopes.ts";
import { optionalParam } from "../token-request.ts";
import type { Grant } from "./grant.ts";

/** Scopes a client credentials token cannot carry: each needs a person on the authorize page (a guild, a channel, a join, a sign-in). */
const NEEDS_A_PERSON = new Set(["bot", "webhook.incoming", "guilds.join", "openid", "applications.commands"]);

const DEFAULT_SCOPES = ["identify"];

/** Why these scopes cannot be had with client credentials, or null. */
export function clientCredentialsScopeDenial(scopes: readonly string[], application: { partner: boolean }): string | null {
  const needsPerson = scopes.find((scope) => NEEDS_A_PERSON.has(scope));
  if (needsPerson) return `The scope ${needsPerson} is not available with client credentials.`;
  return scopeDenial(scopes, application);
}

export const clientCredentialsGrant: Grant = async ({ db, client, form }) => {
  if (client.method === "none") throw new OAuth2Error("unauthorized_client", "A public client cannot use client credentials.");
  const scope = optionalParam(form, "scope");
  const scopes = scope === undefined ? DEFAULT_SCOPES : parseScopeList(scope);
  const denial = clientCredentialsScopeDenial(scopes, client.application);
  if (denial) throw new OAuth2Error("invalid_scope", denial);
  const { application } = client;
  return runChange({ db, actor: null }, async ({ tx }) => {
    const { accessTokenId: _id, ...grant } = await issueTokenPair(tx, {
      applicationId: application.id,
      userId: application.ownerId,
      scopes,
      authorizationId: null,
      refresh: false,
    });
    return grant;
  });
};
