import { describe, expect, it } from "vitest";
import { pkceDenial, s256Challenge } from "./pkce.ts";

describe("PKCE (RFC 7636)", () => {
  it("is base64url(SHA-256(verifier)) without padding", () => {
    // Computed apart: printf <verifier> | openssl dgst -sha256 -binary | base64, made URL-safe.
    expect(s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWjOEjXk")).toBe("VYFANLqdx_HDV6BqEhluZJ63rtrIPROSSFdB3P6G83I");
  });

  it("refuses a missing, malformed or wrong verifier, and a verifier without a challenge", () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWjOEjXk";
    const code = { codeChallenge: s256Challenge(verifier), codeChallengeMethod: "S256" };
    expect(pkceDenial(code, verifier)).toBeNull();
    expect(pkceDenial(code, undefined)).toMatch(/required/);
    expect(pkceDenial(code, "short")).toMatch(/43 to 128/);
    expect(pkceDenial(code, `${verifier}A`)).toMatch(/does not match/);
    expect(pkceDenial({ ...code, codeChallengeMethod: "plain" }, verifier)).toMatch(/S256/);
    expect(pkceDenial({ codeChallenge: null, codeChallengeMethod: null }, undefined)).toBeNull();
    expect(pkceDenial({ codeChallenge: null, codeChallengeMethod: null }, verifier)).toMatch(/no code_challenge/);
  });
});
