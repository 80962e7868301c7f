// What the API reference calls a route: its OpenAPI path, operationId and tag. Derived from
// the row's method and path alone, so a new row is named without being listed anywhere.
import type { Route } from "~/server/rest/route.ts";

/**
 * The first path segment naming a resource decides a route's tag (`/guilds/:id/roles/:id` is
 * Roles, `/lobbies/:id/messages` is Lobbies); a path without one takes its first segment's.
 */
const RESOURCE_TAGS: Readonly<Record<string, string>> = {
  lobbies: "Lobbies",
  webhooks: "Webhooks",
  followers: "Webhooks",
  invites: "Invites",
  "vanity-url": "Invites",
  "target-users": "Invites",
  messages: "Messages",
  threads: "Threads",
  "thread-members": "Threads",
  roles: "Roles",
  members: "Members",
  requests: "Members",
  "member-verification": "Members",
  bans: "Moderation",
  "bulk-ban": "Moderation",
  prune: "Moderation",
  "incident-actions": "Moderation",
  "audit-logs": "Audit log",
  integrations: "Integrations",
  "scheduled-events": "Scheduled events",
  "welcome-screen": "Guild settings",
  onboarding: "Guild settings",
  widget: "Guild settings",
  "widget.json": "Guild settings",
  "widget.png": "Guild settings",
  "voice-status": "Voice",
  regions: "Voice",
  voice: "Voice",
  gateway: "Gateway",
  applications: "Applications",
  oauth2: "OAuth2",
  "partner-sdk": "Partner SDK",
  connections: "Users",
  "openapi.json": "API reference",
};

const literalSegments = (path: string) => path.split("/").filter((segment) => segment !== "" && !segment.startsWith(":"));

export function tagOf(route: Pick<Route, "path">): string {
  const segments = literalSegments(route.path);
  for (const segment of segments) {
    const tag = RESOURCE_TAGS[segment];
    if (tag) return tag;
  }
  return words(segments[0] ?? "API");
}

/** `/guilds/:guildId/members/:userId` as OpenAPI writes it: `/guilds/{guildId}/members/{userId}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
}

/** The path's parameter names, in order. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!);
}

/** An operationId for a route the platform's description lacks: `get_guilds_by_guildId_members`. */
export function derivedOperationId(route: Pick<Route, "method" | "path">): string {
  const parts = route.path
    .split("/")
    .filter(Boolean)
    .map((segment) => (segment.startsWith(":") ? `by_${segment.slice(1)}` : segment.replace(/^@me$/, "me").replace(/[^A-Za-z0-9]+/g, "_")));
  return [route.method.toLowerCase(), ...parts].join("_");
}

/** `get_guild_member` as a heading: "Get guild member". */
export function summaryOf(operationId: string): string {
  const text = operationId
    .replace(/_by_[A-Za-z0-9]+/g, "")
    .replace(/_/g, " ")
    .trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function words(segment: string): string {
  const text = segment.replace(/[-_.]+/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
