// OpenID Connect's id_token (Core 1.0, 2): who signed in, for the client that asked, signed
// RS256 with the key published at /oauth2/keys.
import { SignJWT } from "jose";
import { publicUrl } from "~/env.ts";
import type { User } from "~/generated/prisma/client.ts";
import { ACCESS_TOKEN_LIFETIME_SECONDS } from "./grants.ts";
import { oauth2Issuer } from "./metadata.ts";
import { ID_TOKEN_ALGORITHM, type SigningKey } from "./signing-key.ts";

type IdentityUser = Pick<User, "id" | "username" | "globalName" | "avatar" | "email">;

/** The claims about a user a client sees with these scopes: the userinfo answer and the id_token's identity part. */
export function userClaims(user: IdentityUser, scopes: ReadonlySet<string>): Record<string, unknown> {
  return {
    sub: user.id,
    ...(scopes.has("identify") && { preferred_username: user.username, nickname: user.globalName ?? user.username, picture: avatarUrl(user) }),
    ...(scopes.has("email") && user.email !== null && { email: user.email, email_verified: true }),
  };
}

function avatarUrl(user: IdentityUser): string | null {
  return user.avatar ? publicUrl(`/cdn/avatars/${user.id}/${user.avatar}.png`) : null;
}

/** A signed id_token for a user and client; `nonce` is the authorize request's, repeated. */
export async function signIdToken(
  key: SigningKey,
  input: { user: IdentityUser; clientId: string; scopes: ReadonlySet<string>; nonce: string | null; accessToken: string },
): Promise<string> {
  const { sub: _sub, ...claims } = userClaims(input.user, input.scopes);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claims, ...(input.nonce && { nonce: input.nonce }), at_hash: await accessTokenHash(input.accessToken) })
    .setProtectedHeader({ alg: ID_TOKEN_ALGORITHM, kid: key.kid, typ: "JWT" })
    .setIssuer(oauth2Issuer())
    .setSubject(input.user.id)
    .setAudience(input.clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TOKEN_LIFETIME_SECONDS)
    .sign(key.privateKey);
}

/** at_hash (OIDC Core 3.1.3.6): the left half of the access token's SHA-256, base64url. */
async function accessTokenHash(accessToken: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(accessToken)));
  return Buffer.from(digest.subarray(0, digest.length / 2)).toString("base64url");
}
