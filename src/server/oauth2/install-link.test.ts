import { PermissionFlagsBits } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { grantableScopes } from "./scopes.ts";
import { buildInstallLink, installLinkDenial, installNeedsRedirect, type InstallLinkInput } from "./install-link.ts";

const AUTHORIZE = "https://guildhall.example/oauth2/authorize";
const base: InstallLinkInput = { authorizeUrl: AUTHORIZE, clientId: "123456789012345678", scopes: [] };
const app = { botRequireCodeGrant: false, redirectUris: ["https://game.example/callback"] };

function paramsOf(link: string) {
  const url = new URL(link);
  expect(`${url.origin}${url.pathname}`).toBe(AUTHORIZE);
  return Object.fromEntries(url.searchParams);
}

describe("buildInstallLink", () => {
  it("makes a bot link with its permissions as a decimal string and a guild install, without a redirect", () => {
    const permissions = PermissionFlagsBits.SendMessages | PermissionFlagsBits.SetVoiceChannelStatus;
    const link = buildInstallLink({ ...base, scopes: ["bot", "applications.commands"], permissions });
    expect(paramsOf(link)).toEqual({
      client_id: "123456789012345678",
      permissions: permissions.toString(),
      integration_type: "0",
      scope: "bot applications.commands",
    });
    expect(link).toContain("scope=bot%20applications.commands");
  });

  it("carries the guild, locked when asked, only for bot", () => {
    const bot = paramsOf(buildInstallLink({ ...base, scopes: ["bot"], guildId: "42", disableGuildSelect: true }));
    expect(bot).toMatchObject({ guild_id: "42", disable_guild_select: "true", permissions: "0" });
    const unlocked = paramsOf(buildInstallLink({ ...base, scopes: ["bot"], guildId: "42", disableGuildSelect: false }));
    expect(unlocked.guild_id).toBe("42");
    expect(unlocked).not.toHaveProperty("disable_guild_select");
    const identify = paramsOf(buildInstallLink({ ...base, scopes: ["identify"], guildId: "42", redirectUri: app.redirectUris[0] }));
    expect(identify).not.toHaveProperty("guild_id");
    expect(identify).not.toHaveProperty("permissions");
    expect(identify).not.toHaveProperty("integration_type");
  });

  it("sends response_type (code unless token is chosen) with the redirect URI and state", () => {
    const code = paramsOf(buildInstallLink({ ...base, scopes: ["identify", "guilds"], redirectUri: "mygame://cb?x=1&y=2", state: "s 1" }));
    expect(code).toEqual({ client_id: base.clientId, scope: "identify guilds", response_type: "code", redirect_uri: "mygame://cb?x=1&y=2", state: "s 1" });
    const token = paramsOf(buildInstallLink({ ...base, scopes: ["identify"], redirectUri: "https://a.example/", responseType: "token" }));
    expect(token.response_type).toBe("token");
  });
});

describe("installNeedsRedirect and installLinkDenial", () => {
  it("needs a redirect for any scope besides bot and applications.commands, or a bot requiring the code grant", () => {
    expect(installNeedsRedirect(["bot", "applications.commands"], app)).toBe(false);
    expect(installNeedsRedirect(["bot", "identify"], app)).toBe(true);
    expect(installNeedsRedirect(["webhook.incoming"], app)).toBe(true);
    expect(installNeedsRedirect(["bot"], { botRequireCodeGrant: true })).toBe(true);
    expect(installNeedsRedirect(["applications.commands"], { botRequireCodeGrant: true })).toBe(false);
  });

  it("says what is missing", () => {
    expect(installLinkDenial(base, app)).toBe("Tick at least one scope.");
    expect(installLinkDenial({ ...base, scopes: ["bot"] }, app)).toBeNull();
    expect(installLinkDenial({ ...base, scopes: ["identify"] }, app)).toMatch(/pick a redirect URI/);
    expect(installLinkDenial({ ...base, scopes: ["identify"] }, { ...app, redirectUris: [] })).toMatch(/register a redirect URI first/);
    expect(installLinkDenial({ ...base, scopes: ["identify"], redirectUri: "https://elsewhere.example/" }, app)).toMatch(/registered/);
    expect(installLinkDenial({ ...base, scopes: ["identify"], redirectUri: app.redirectUris[0] }, app)).toBeNull();
  });
});

describe("grantableScopes", () => {
  it("offers the grantable scopes, partner-only ones to partners, never those needing approval", () => {
    const everyone = grantableScopes({ partner: false });
    expect(everyone).toEqual(expect.arrayContaining(["identify", "bot", "guilds.join", "webhook.incoming", "applications.commands"]));
    expect(everyone).not.toContain("identify.premium");
    expect(everyone).not.toContain("messages.read");
    expect(grantableScopes({ partner: true })).toContain("identify.premium");
  });
});
