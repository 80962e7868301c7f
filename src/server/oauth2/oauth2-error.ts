// OAuth2's own error answers (RFC 6749 5.2, RFC 7009, RFC 9207), which the token and revoke
// endpoints send instead of the platform's JSON error envelope: strict client libraries read
// `error` and `error_description`.

/** RFC 6749's error codes (and OpenID Connect's, for prompt=none). */
export type OAuth2ErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "access_denied"
  | "unsupported_response_type"
  | "unsupported_token_type"
  | "server_error"
  | "temporarily_unavailable"
  | "consent_required"
  | "login_required"
  | "interaction_required";

/** RFC 6749 5.1: token answers, and their errors, are never cached. */
export const NO_STORE_HEADERS = { "cache-control": "no-store", pragma: "no-cache" } as const;

export class OAuth2Error extends Error {
  constructor(
    readonly error: OAuth2ErrorCode,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }

  /** invalid_client is 401 with a Basic challenge (RFC 6749 5.2); every other error is 400. */
  get status(): 400 | 401 {
    return this.error === "invalid_client" ? 401 : 400;
  }

  toBody(): { error: OAuth2ErrorCode; error_description: string } {
    return { error: this.error, error_description: this.description };
  }

  headers(): Record<string, string> {
    const headers: Record<string, string> = { ...NO_STORE_HEADERS };
    if (this.status === 401) headers["www-authenticate"] = 'Basic realm="oauth2"';
    return headers;
  }
}
