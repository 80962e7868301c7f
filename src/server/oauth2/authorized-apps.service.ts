// Authorized apps: the applications a signed-in user granted something, and taking it back.
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { deauthorize } from "./grants.ts";
import { isScopeName, parseScopeList, SCOPES } from "./scopes.ts";

export type AuthorizedApp = {
  application: { id: string; name: string; icon: string | null };
  /** What was granted, each scope in words. */
  scopes: { scope: string; grants: string }[];
  /** When the user first authorized it, and when they last approved more. */
  authorizedAt: string;
  updatedAt: string;
};

/** The user's authorizations, most recently approved first. */
export async function listAuthorizedApps(ctx: ServiceContext): Promise<AuthorizedApp[]> {
  const rows = await ctx.db.oAuth2Authorization.findMany({
    where: { userId: ctx.actor.userId },
    include: { application: { select: { id: true, name: true, icon: true } } },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
  });
  return rows.map((row) => ({
    application: row.application,
    scopes: parseScopeList(row.scopes).map((scope) => ({ scope, grants: isScopeName(scope) ? SCOPES[scope].grants : scope })),
    authorizedAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/** Deauthorizes one of the user's applications: its tokens stop working at once. 10002 when it was not authorized. */
export async function deauthorizeApp(ctx: ServiceContext, input: { applicationId: string }): Promise<void> {
  if (!(await deauthorize(ctx, { applicationId: input.applicationId, userId: ctx.actor.userId }))) throw new ApiError("UNKNOWN_APPLICATION");
}
