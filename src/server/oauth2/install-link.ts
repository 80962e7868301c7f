// The developer portal's install link: the authorize URL an application shares so people add
// its bot or grant it scopes. The authorize page reads exactly these parameters.
import { ApplicationIntegrationType } from "discord-api-types/v10";
import type { ScopeName } from "./scopes.ts";

/** Scopes a bot-only link may carry without the code grant: adding the bot needs no redirect. */
const NO_REDIRECT_SCOPES: ReadonlySet<string> = new Set<ScopeName>(["bot", "applications.commands"]);

export type InstallLinkResponseType = "code" | "token";

export type InstallLinkInput = {
  /** `{PUBLIC_BASE_URL}/oauth2/authorize`. */
  authorizeUrl: string;
  clientId: string;
  scopes: readonly string[];
  /** The bot's permissions (decimal on the wire); only sent with `bot`. */
  permissions?: bigint;
  /** Preselects a guild for `bot`; with `disableGuildSelect` the person cannot pick another. */
  guildId?: string | null;
  disableGuildSelect?: boolean;
  /** A registered redirect URI; sent with `response_type` when the link needs a grant back. */
  redirectUri?: string | null;
  responseType?: InstallLinkResponseType;
  state?: string | null;
};

/**
 * Whether approving the link must redirect back with a grant: any scope besides bot and
 * applications.commands gives the application a token, and a bot that requires the code grant
 * is only added through it.
 */
export function installNeedsRedirect(scopes: readonly string[], application: { botRequireCodeGrant: boolean }): boolean {
  if (scopes.some((scope) => !NO_REDIRECT_SCOPES.has(scope))) return true;
  return scopes.includes("bot") && application.botRequireCodeGrant;
}

/** Why no link can be made from these choices yet, or null. */
export function installLinkDenial(input: InstallLinkInput, application: { botRequireCodeGrant: boolean; redirectUris: readonly string[] }): string | null {
  if (input.scopes.length === 0) return "Tick at least one scope.";
  if (input.redirectUri && !application.redirectUris.includes(input.redirectUri)) return "The redirect URI must be one of the registered ones.";
  if (installNeedsRedirect(input.scopes, application) && !input.redirectUri) {
    return application.redirectUris.length === 0
      ? "These scopes send a grant back to your application: register a redirect URI first."
      : "These scopes send a grant back to your application: pick a redirect URI.";
  }
  return null;
}

/**
 * The install link, with the platform's parameters: client_id, scope (space-separated),
 * permissions (decimal, with bot), integration_type 0 (guild install, with bot), guild_id,
 * disable_guild_select=true, and response_type with redirect_uri when a grant goes back.
 */
export function buildInstallLink(input: InstallLinkInput): string {
  const params = new URLSearchParams({ client_id: input.clientId });
  const hasBot = input.scopes.includes("bot");
  if (hasBot) {
    params.set("permissions", (input.permissions ?? 0n).toString());
    params.set("integration_type", String(ApplicationIntegrationType.GuildInstall));
  }
  params.set("scope", input.scopes.join(" "));
  if (input.redirectUri) {
    params.set("response_type", input.responseType ?? "code");
    params.set("redirect_uri", input.redirectUri);
  }
  if (hasBot && input.guildId) {
    params.set("guild_id", input.guildId);
    if (input.disableGuildSelect) params.set("disable_guild_select", "true");
  }
  if (input.state) params.set("state", input.state);
  // Spaces as %20, as the platform's own links write them (both decode alike).
  return `${input.authorizeUrl}?${params.toString().replaceAll("+", "%20")}`;
}
