/** Who is making a request. Every service takes one; permissions are computed for `userId`. */
export type Actor = {
  kind: "bot" | "bearer" | "user";
  userId: string;
  /** The application a bot or bearer token belongs to. */
  applicationId: string | null;
  /** OAuth2 scopes of a bearer token; bots and dashboard users are not scope-limited. */
  scopes: ReadonlySet<string>;
};

export const OAUTH2_SCOPES = [
  "identify",
  "email",
  "connections",
  "guilds",
  "guilds.join",
  "guilds.members.read",
  "sdk.social_layer",
  "bot",
  "applications.commands",
] as const;
export type OAuth2Scope = (typeof OAUTH2_SCOPES)[number];

export function dashboardActor(userId: string): Actor {
  return { kind: "user", userId, applicationId: null, scopes: new Set() };
}

/** Bearer tokens are limited to their scopes; other principals are not. */
export function hasScope(actor: Actor, scope: OAuth2Scope): boolean {
  return actor.kind !== "bearer" || actor.scopes.has(scope);
}
