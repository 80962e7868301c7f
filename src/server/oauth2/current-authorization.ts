// What a bearer token may learn about itself: GET /oauth2/@me (the platform's current
// authorization information) and OpenID Connect's userinfo.
import type { RESTGetAPIOAuth2CurrentAuthorizationResult } from "discord-api-types/v10";
import { applicationKeys } from "~/server/applications/application-keys.ts";
import { toApplicationBase } from "~/server/applications/application.dto.ts";
import { tokenIdOf } from "~/server/auth/tokens.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { toUserObject, type UserObject } from "~/server/users/user.dto.ts";
import { userClaims } from "./id-token.ts";

/**
 * The platform's answer, but `expires` is null for the operator's tokens that never expire
 * (`token create` without an expiry), and `scopes` lists every scope granted (openid too).
 */
export type CurrentAuthorization = Omit<RESTGetAPIOAuth2CurrentAuthorizationResult, "expires" | "scopes" | "user" | "application"> & {
  application: Exclude<RESTGetAPIOAuth2CurrentAuthorizationResult["application"], undefined>;
  scopes: string[];
  expires: string | null;
  user?: UserObject;
};

/** GET /oauth2/@me for the bearer token in `authorization`. */
export async function currentAuthorization(ctx: ServiceContext, authorization: string | null): Promise<CurrentAuthorization> {
  const { actor } = ctx;
  if (!actor.applicationId) throw new ApiError("UNKNOWN_APPLICATION");
  const tokenId = tokenIdOf(authorization?.replace(/^bearer\s+/i, "").trim() ?? "");
  const [application, token, user] = await Promise.all([
    ctx.db.application.findUnique({ where: { id: actor.applicationId } }),
    tokenId ? ctx.db.token.findUnique({ where: { id: tokenId }, select: { expiresAt: true } }) : null,
    actor.scopes.has("identify") ? ctx.db.user.findUnique({ where: { id: actor.userId } }) : null,
  ]);
  if (!application) throw new ApiError("UNKNOWN_APPLICATION");
  const { verifyKey } = await applicationKeys(ctx.db, application.id);
  return {
    application: toApplicationBase(application, verifyKey),
    scopes: [...actor.scopes],
    expires: token?.expiresAt?.toISOString() ?? null,
    ...(user && { user: toUserObject(user) }),
  };
}

/** GET /oauth2/userinfo (OpenID Connect Core 5.3): the claims the token's scopes allow. */
export async function userInfo(ctx: ServiceContext): Promise<Record<string, unknown>> {
  const user = await ctx.db.user.findUnique({ where: { id: ctx.actor.userId } });
  if (!user) throw new ApiError("UNKNOWN_USER");
  return userClaims(user, ctx.actor.scopes);
}
