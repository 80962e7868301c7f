import { describe, expect, it } from "vitest";
import { authorizationServerMetadata, GRANTABLE_SCOPES, isWellKnownPath, openidConfiguration, wellKnownDocument } from "./metadata.ts";

const ISSUER = "https://guildhall.example";

describe("authorization server metadata", () => {
  it("names the issuer's endpoints, grants, client authentication, PKCE and the iss parameter", () => {
    expect(authorizationServerMetadata(ISSUER)).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth2/authorize`,
      token_endpoint: `${ISSUER}/api/oauth2/token`,
      revocation_endpoint: `${ISSUER}/api/oauth2/token/revoke`,
      jwks_uri: `${ISSUER}/api/oauth2/keys`,
      response_types_supported: ["code", "token"],
      grant_types_supported: expect.arrayContaining(["authorization_code", "refresh_token", "client_credentials"]),
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it("offers the scopes an application can be granted, not those the platform approves by hand", () => {
    expect(GRANTABLE_SCOPES).toEqual(expect.arrayContaining(["identify", "email", "guilds.join", "bot", "webhook.incoming", "openid", "identify.premium"]));
    expect(GRANTABLE_SCOPES).not.toContain("rpc");
    expect(GRANTABLE_SCOPES).not.toContain("messages.read");
  });

  it("adds userinfo and what id_tokens hold for OpenID Connect discovery", () => {
    expect(openidConfiguration(ISSUER)).toMatchObject({
      ...authorizationServerMetadata(ISSUER),
      userinfo_endpoint: `${ISSUER}/api/oauth2/userinfo`,
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      claims_supported: expect.arrayContaining(["sub", "email", "nonce"]),
    });
  });

  it("answers the two well-known paths only", () => {
    expect(wellKnownDocument("/.well-known/oauth-authorization-server", ISSUER)).toEqual(authorizationServerMetadata(ISSUER));
    expect(wellKnownDocument("/.well-known/openid-configuration", ISSUER)).toEqual(openidConfiguration(ISSUER));
    expect(wellKnownDocument("/.well-known/security.txt", ISSUER)).toBeNull();
    expect(isWellKnownPath("/.well-known/openid-configuration?x=1")).toBe(true);
    expect(isWellKnownPath("/.well-known/security.txt")).toBe(false);
    expect(isWellKnownPath("/api/v10/oauth2/token")).toBe(false);
  });
});
