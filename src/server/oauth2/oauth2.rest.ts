import { z } from "zod";
import { getCurrentApplication } from "~/server/applications/application.service.ts";
import { ok, route, type RestResult } from "~/server/rest/route.ts";
import { NO_STORE_HEADERS } from "./oauth2-error.ts";
import { currentAuthorization, userInfo } from "./current-authorization.ts";
import { jsonWebKeySet } from "./signing-key.ts";
import { exchangeToken, revokeToken } from "./token.service.ts";

// The form is read by the handler (token-request.ts), so every malformed request is an OAuth2 error, not 50035.
const ANY_FORM = z.unknown();

const OPEN_TO_CLIENTS = { to: "anyone", why: "clients authenticate in the request itself (client secret or PKCE), not with a token" } as const;

export const oauth2Routes = [
  route({
    method: "POST",
    path: "/oauth2/token",
    auth: "none",
    form: true,
    body: ANY_FORM,
    open: OPEN_TO_CLIENTS,
    handler: async ({ ctx, body, header }): Promise<RestResult> => {
      const answer = await exchangeToken(ctx.db, { body, authorization: header("authorization"), contentType: header("content-type") });
      return { status: 200, body: answer, headers: NO_STORE_HEADERS };
    },
  }),
  route({
    method: "POST",
    path: "/oauth2/token/revoke",
    auth: "none",
    form: true,
    body: ANY_FORM,
    open: OPEN_TO_CLIENTS,
    handler: async ({ ctx, body, header }): Promise<RestResult> => {
      await revokeToken(ctx.db, { body, authorization: header("authorization"), contentType: header("content-type") });
      return { status: 200, body: {}, headers: NO_STORE_HEADERS };
    },
  }),
  route({
    method: "GET",
    path: "/oauth2/@me",
    auth: "bearer",
    open: { to: "outsider", why: "the caller's own authorization" },
    handler: async ({ ctx, header }) => ok(await currentAuthorization(ctx, header("authorization"))),
  }),
  route({
    method: "GET",
    path: "/oauth2/applications/@me",
    auth: "bot",
    open: { to: "outsider", why: "the caller's own application" },
    handler: async ({ ctx }) => ok(await getCurrentApplication(ctx)),
  }),
  route({
    method: "GET",
    path: "/oauth2/keys",
    auth: "none",
    open: { to: "anyone", why: "the public keys that verify id_tokens" },
    handler: async ({ ctx }) => ok(await jsonWebKeySet(ctx.db)),
  }),
  route({
    method: "GET",
    path: "/oauth2/userinfo",
    auth: "bearer",
    scopes: ["openid"],
    handler: async ({ ctx }) => ok(await userInfo(ctx)),
  }),
];
