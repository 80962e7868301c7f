// PKCE (RFC 7636): the code_verifier proves the token request comes from whoever started the
// authorization. Only S256 is offered (the metadata's code_challenge_methods_supported).
import { createHash } from "node:crypto";

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The S256 challenge of a verifier: base64url(SHA-256(verifier)). */
export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** Why a token request's verifier does not answer the code's challenge, or null when it does. */
export function pkceDenial(code: { codeChallenge: string | null; codeChallengeMethod: string | null }, verifier: string | undefined): string | null {
  if (code.codeChallenge === null) return verifier === undefined ? null : "The authorization request had no code_challenge.";
  if (verifier === undefined) return "code_verifier is required: the authorization request had a code_challenge.";
  if (!VERIFIER.test(verifier)) return "code_verifier must be 43 to 128 unreserved characters.";
  if ((code.codeChallengeMethod ?? "S256") !== "S256") return "Only the S256 code challenge method is supported.";
  return s256Challenge(verifier) === code.codeChallenge ? null : "code_verifier does not match the code_challenge.";
}
