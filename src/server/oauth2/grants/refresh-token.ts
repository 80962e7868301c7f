// grant_type=refresh_token (RFC 6749 6): a live refresh token of this client, under an
// authorization that still stands, is exchanged for a new pair; the old refresh token and its
// access token are revoked (rotation). A narrower scope may be asked for, never a wider one.
import { InternalEvents } from "~/server/events/event-map.ts";
import { runChange } from "~/server/events/change.ts";
import { findStoredToken } from "~/server/auth/tokens.service.ts";
import { issueTokenPair } from "../grants.ts";
import { OAuth2Error } from "../oauth2-error.ts";
import { parseScopeList } from "../scopes.ts";
import { optionalParam, requiredParam } from "../token-request.ts";
import type { Grant } from "./grant.ts";

const invalidGrant = (description: string) => new OAuth2Error("invalid_grant", description);

/** The platform's word for refreshing a provisional account's token (spec 9). */
export const PROVISIONAL_REFRESH_DEPRECATED =
  "The refresh_token grant is deprecated for provisional accounts: exchange the external credentials again for a new token.";

/** Why a narrower scope cannot be asked for on refresh (RFC 6749 6: none beyond the original grant), or null. */
export function refreshScopeDenial(granted: readonly string[], asked: readonly string[]): string | null {
  const beyond = asked.filter((scope) => !granted.includes(scope));
  if (asked.length === 0) return "scope must name at least one scope when it is given.";
  return beyond.length === 0 ? null : `The refresh token was not granted: ${beyond.join(" ")}`;
}

export const refreshTokenGrant: Grant = async ({ db, client, form }) => {
  const token = requiredParam(form, "refresh_token");
  const askedScope = optionalParam(form, "scope");
  return runChange({ db, actor: null }, async ({ tx, emit }) => {
    const row = await findStoredToken(tx, token, ["refresh"]);
    if (row?.applicationId !== client.application.id) throw invalidGrant("The refresh token is unknown.");
    if (row.revokedAt) throw invalidGrant("The refresh token was revoked.");
    const authorization = row.authorizationId ? await tx.oAuth2Authorization.findUnique({ where: { id: row.authorizationId } }) : null;
    if (!authorization) throw invalidGrant("The authorization was deleted: the user deauthorized the application.");
    const user = await tx.user.findUniqueOrThrow({ where: { id: row.userId }, select: { provisionalApplicationId: true } });
    if (user.provisionalApplicationId !== null) throw invalidGrant(PROVISIONAL_REFRESH_DEPRECATED);

    const granted = parseScopeList(row.scopes);
    const scopes = askedScope === undefined ? granted : parseScopeList(askedScope);
    const scopeProblem = askedScope === undefined ? null : refreshScopeDenial(granted, scopes);
    if (scopeProblem) throw new OAuth2Error("invalid_scope", scopeProblem);

    // One conditional update: of two refreshes with the same token, one wins.
    const { count } = await tx.token.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count !== 1) throw invalidGrant("The refresh token was revoked.");
    const revoked = [row.id];
    if (row.pairedTokenId) {
      await tx.token.updateMany({ where: { id: row.pairedTokenId, revokedAt: null }, data: { revokedAt: new Date() } });
      revoked.push(row.pairedTokenId);
    }
    await emit(InternalEvents.TokensRevoked, { token_ids: revoked });
    const { accessTokenId: _id, ...grant } = await issueTokenPair(tx, {
      applicationId: client.application.id,
      userId: row.userId,
      scopes,
      authorizationId: authorization.id,
      refresh: true,
    });
    return grant;
  });
};
