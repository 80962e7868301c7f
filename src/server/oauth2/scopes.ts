// The platform's OAuth2 scopes, in words for the consent page and the portal's install link
// generator, and which of them an application may be granted here. The token endpoint,
// the authorize page and the portal read this one table.
import type { OAuth2Scopes } from "discord-api-types/v10";

/** Who may be granted a scope: any application, partners only (an operator's grant), or none here (the platform approves those by hand). */
type ScopeAvailability = "any" | "partner" | "approval";

export type ScopeInfo = {
  /** What the consent page says the application may do, after "This will allow {app} to". */
  grants: string;
  availability: ScopeAvailability;
};

export const SCOPES = {
  identify: { grants: "access your username, avatar and banner", availability: "any" },
  "identify.premium": { grants: "see whether you subscribe to the platform's premium tier", availability: "partner" },
  email: { grants: "access your email address", availability: "any" },
  connections: { grants: "access your third-party connections", availability: "any" },
  guilds: { grants: "know what servers you're in", availability: "any" },
  "guilds.join": { grants: "join servers for you", availability: "any" },
  "guilds.members.read": { grants: "read your member info (nickname, avatar, roles) in servers you're in", availability: "any" },
  bot: { grants: "add a bot to a server", availability: "any" },
  "applications.commands": { grants: "create commands in a server", availability: "any" },
  "webhook.incoming": { grants: "post messages to a channel through a webhook", availability: "any" },
  "role_connections.write": { grants: "update your connection and metadata for this app", availability: "any" },
  "gdm.join": { grants: "join group direct messages for you", availability: "approval" },
  "dm_channels.read": { grants: "read your direct messages", availability: "approval" },
  "messages.read": { grants: "read messages from the channels you're in, locally", availability: "approval" },
  "relationships.read": { grants: "know who your friends are", availability: "approval" },
  "activities.read": { grants: "read your activities", availability: "approval" },
  "activities.write": { grants: "update your activity", availability: "approval" },
  rpc: { grants: "control your local client", availability: "approval" },
  "rpc.activities.write": { grants: "update your activity in your local client", availability: "approval" },
  "rpc.voice.read": { grants: "read your voice settings in your local client", availability: "approval" },
  "rpc.voice.write": { grants: "change your voice settings in your local client", availability: "approval" },
  "rpc.notifications.read": { grants: "read your notifications in your local client", availability: "approval" },
  voice: { grants: "connect to voice for you", availability: "approval" },
  "applications.builds.read": { grants: "read build data for the application", availability: "approval" },
  "applications.builds.upload": { grants: "upload builds for the application", availability: "approval" },
  "applications.entitlements": { grants: "read your entitlements for the application", availability: "any" },
  "applications.store.update": { grants: "manage the application's store listing", availability: "approval" },
  "applications.commands.update": { grants: "update the application's own commands", availability: "approval" },
  "applications.commands.permissions.update": { grants: "update command permissions in servers you manage", availability: "any" },
  openid: { grants: "verify your identity with OpenID Connect", availability: "any" },
  "sdk.social_layer": { grants: "use the Social SDK in games for you: lobbies, friends and messages", availability: "any" },
  "sdk.social_layer_presence": { grants: "show your game presence through the Social SDK", availability: "any" },
} as const satisfies Record<`${OAuth2Scopes}` | "openid" | "sdk.social_layer" | "sdk.social_layer_presence", ScopeInfo>;

export type ScopeName = keyof typeof SCOPES;

export function isScopeName(value: string): value is ScopeName {
  return Object.hasOwn(SCOPES, value);
}

/** Space-separated scopes as the platform takes them (`scope=identify guilds`); repeats collapse, order kept. */
export function parseScopeList(text: string): string[] {
  return [...new Set(text.split(/[\s+]+/).filter(Boolean))];
}

/**
 * Why a scope list cannot be granted to an application (RFC 6749's invalid_scope), or null:
 * unknown scopes, scopes the platform approves by hand, and partner-only scopes for others.
 */
export function scopeDenial(scopes: readonly string[], application: { partner: boolean }): string | null {
  if (scopes.length === 0) return "No scope was asked for.";
  for (const scope of scopes) {
    if (!isScopeName(scope)) return `Unknown scope: ${scope}`;
    const denial = availabilityDenial(scope, application);
    if (denial) return denial;
  }
  return null;
}

function availabilityDenial(scope: ScopeName, application: { partner: boolean }): string | null {
  const { availability } = SCOPES[scope];
  if (availability === "approval") return `The scope ${scope} needs the platform's approval, which this application does not have.`;
  if (availability === "partner" && !application.partner) return `The scope ${scope} is for partner applications only.`;
  return null;
}

/** The scopes an application may be granted (its install links offer these); a partner's are every one the server grants. */
export function grantableScopes(application: { partner: boolean }): ScopeName[] {
  return (Object.keys(SCOPES) as ScopeName[]).filter((scope) => availabilityDenial(scope, application) === null);
}
