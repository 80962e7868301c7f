import { describe, expect, it } from "vitest";
import { clientCredentialsScopeDenial } from "./grants/client-credentials.ts";
import { refreshScopeDenial } from "./grants/refresh-token.ts";

describe("client credentials scopes", () => {
  it("refuses scopes that need a person on the authorize page, and what scopeDenial refuses", () => {
    expect(clientCredentialsScopeDenial(["identify", "guilds"], { partner: false })).toBeNull();
    expect(clientCredentialsScopeDenial(["identify", "bot"], { partner: false })).toBe("The scope bot is not available with client credentials.");
    expect(clientCredentialsScopeDenial(["webhook.incoming"], { partner: true })).toMatch(/webhook\.incoming/);
    expect(clientCredentialsScopeDenial(["identify.premium"], { partner: false })).toMatch(/partner/);
    expect(clientCredentialsScopeDenial(["identify.premium"], { partner: true })).toBeNull();
  });
});

describe("refresh scopes", () => {
  it("may narrow the granted scopes, never widen them", () => {
    expect(refreshScopeDenial(["identify", "guilds"], ["identify"])).toBeNull();
    expect(refreshScopeDenial(["identify"], ["identify", "email"])).toBe("The refresh token was not granted: email");
    expect(refreshScopeDenial(["identify"], [])).toMatch(/at least one/);
  });
});
