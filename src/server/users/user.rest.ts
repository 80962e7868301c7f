import { ok, route } from "~/server/rest/route.ts";
import { ZCurrentUserGuildsQuerySchema, ZModifyCurrentUserBodySchema } from "./user.schema.ts";
import { getCurrentUser, getUser, listCurrentUserGuilds, modifyCurrentUser } from "./user.service.ts";

export const userRoutes = [
  route({
    method: "GET",
    path: "/users/@me",
    auth: "any",
    scopes: ["identify"],
    open: { to: "outsider", why: "the caller's own user" },
    handler: async ({ ctx }) => ok(await getCurrentUser(ctx)),
  }),
  route({
    method: "PATCH",
    path: "/users/@me",
    auth: "bot",
    open: { to: "outsider", why: "the caller's own user" },
    body: ZModifyCurrentUserBodySchema,
    handler: async ({ ctx, body }) => ok(await modifyCurrentUser(ctx, body)),
  }),
  route({
    method: "GET",
    path: "/users/:userId",
    auth: "bot",
    open: { to: "outsider", why: "any user's public profile, as the platform shows it to bots" },
    handler: async ({ ctx, params }) => ok(await getUser(ctx, params.userId)),
  }),
  route({
    method: "GET",
    path: "/users/@me/guilds",
    auth: "any",
    scopes: ["guilds"],
    open: { to: "outsider", why: "the caller's own guilds" },
    query: ZCurrentUserGuildsQuerySchema,
    handler: async ({ ctx, query }) => ok(await listCurrentUserGuilds(ctx, query)),
  }),
];
