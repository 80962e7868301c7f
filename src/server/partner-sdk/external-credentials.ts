// Verifying a player's external credentials (partner SDK): an OIDC id_token against the
// application's identity provider, or an access token this server issued to a provisional
// account through the Bot endpoint. The other providers the platform knows (Steam, Epic,
// Apple, PlayStation, Unity) cannot be verified here, so no application is set up for them.
import { decodeProtectedHeader, errors, jwtVerify } from "jose";
import type { Tx } from "~/server/db/client.ts";
import { ApiError, type ErrorKey } from "~/server/errors.ts";
import { findStoredToken } from "~/server/auth/tokens.service.ts";
import { providerKeys } from "./provider-key-sets.ts";
import { BOT_ISSUED, type ExternalAuthType } from "./partner-sdk.schema.ts";

/** Who the credentials prove the player is, and the name their provider gave them. */
export type ExternalIdentityClaim = { authType: ExternalAuthType; subject: string; displayName: string | null };

/** Asymmetric algorithms only, as the platform takes id_tokens (HMAC would need a shared secret). */
const ID_TOKEN_ALGORITHMS = ["RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256", "PS384", "PS512"];
/** An id_token issued longer ago than this is refused even before it expires. */
const ID_TOKEN_MAX_AGE = "7d";
/** A display name from `preferred_username` is used only at the platform's global name length. */
const DISPLAY_NAME_MAX = 32;

/** The identity the credentials prove for `applicationId`, or the platform's error saying why not. */
export async function verifyExternalCredential(tx: Tx, applicationId: string, authType: ExternalAuthType, token: string): Promise<ExternalIdentityClaim> {
  if (authType === BOT_ISSUED) return botIssuedIdentity(tx, applicationId, token);
  const provider = await tx.identityProvider.findUnique({ where: { applicationId_authType: { applicationId, authType } } });
  if (!provider || authType !== "OIDC") throw new ApiError("PROVISIONAL_NOT_ENABLED");
  return oidcIdentity(provider, token);
}

async function oidcIdentity(provider: { issuer: string; audience: string; jwksUri: string }, token: string): Promise<ExternalIdentityClaim> {
  let header;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new ApiError("INVALID_OIDC_TOKEN");
  }
  if (typeof header.kid !== "string" || header.kid === "") throw new ApiError("OIDC_MISSING_KID");
  const keys = providerKeys(provider.jwksUri);
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer: provider.issuer,
      audience: provider.audience,
      algorithms: ID_TOKEN_ALGORITHMS,
      maxTokenAge: ID_TOKEN_MAX_AGE,
      requiredClaims: ["sub", "exp", "iat"],
    });
    const name = typeof payload.preferred_username === "string" ? payload.preferred_username.trim() : "";
    return { authType: "OIDC", subject: payload.sub!, displayName: name.length >= 1 && name.length <= DISPLAY_NAME_MAX ? name : null };
  } catch (error) {
    throw new ApiError(oidcErrorOf(error));
  }
}

/** The platform's code for why jose refused an id_token. */
function oidcErrorOf(error: unknown): ErrorKey {
  if (error instanceof errors.JWTExpired) return error.claim === "iat" ? "ID_TOKEN_TOO_OLD" : "ID_TOKEN_EXPIRED";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "ID_TOKEN_ISSUER_MISMATCH";
    if (error.claim === "aud") return "ID_TOKEN_AUDIENCE_MISMATCH";
    return "INVALID_OIDC_TOKEN";
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported ||
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid
  )
    return "INVALID_OIDC_TOKEN";
  // The key set could not be fetched or read: unreachable, not 200, not a JWKS, too slow.
  return "OIDC_JWKS_NOT_FOUND";
}

/**
 * An access token the Bot endpoint issued: live, of this application, and held by one of its
 * provisional accounts, whose game id it proves. Anything else is the platform's 50025.
 */
async function botIssuedIdentity(tx: Tx, applicationId: string, token: string): Promise<ExternalIdentityClaim> {
  const row = await findStoredToken(tx, token, ["bearer"]);
  if (row?.applicationId !== applicationId || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= Date.now()))
    throw new ApiError("INVALID_OAUTH2_TOKEN");
  const identity = await tx.externalIdentity.findFirst({
    where: { applicationId, authType: BOT_ISSUED, userId: row.userId, user: { provisionalApplicationId: applicationId } },
  });
  if (!identity) throw new ApiError("INVALID_OAUTH2_TOKEN");
  return { authType: BOT_ISSUED, subject: identity.subject, displayName: null };
}
