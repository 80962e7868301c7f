import { SCOPES, type ScopeName } from "~/server/oauth2/scopes.ts";

/** Who is making a request. Every service takes one; permissions are computed for `userId`. */
export type Actor = {
  kind: "bot" | "bearer" | "user";
  userId: string;
  /** The application a bot or bearer token belongs to. */
  applicationId: string | null;
  /** OAuth2 scopes of a bearer token; bots and dashboard users are not scope-limited. */
  scopes: ReadonlySet<string>;
};

/** Scopes a bearer token may carry: the platform's (oauth2/scopes.ts). */
export const OAUTH2_SCOPES = Object.keys(SCOPES) as ScopeName[];
export type OAuth2Scope = ScopeName;

export function dashboardActor(userId: string): Actor {
  return { kind: "user", userId, applicationId: null, scopes: new Set() };
}

/** Bearer tokens are limited to their scopes; other principals are not. */
export function hasScope(actor: Actor, scope: OAuth2Scope): boolean {
  return actor.kind !== "bearer" || actor.scopes.has(scope);
}
