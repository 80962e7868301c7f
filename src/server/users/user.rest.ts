import { ok, route } from "~/server/rest/route.ts";
import { ZCurrentUserGuildsQuerySchema } from "./user.schema.ts";
import { getCurrentUser, listCurrentUserGuilds } from "./user.service.ts";

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
    method: "GET",
    path: "/users/@me/guilds",
    auth: "any",
    scopes: ["guilds"],
    open: { to: "outsider", why: "the caller's own guilds" },
    query: ZCurrentUserGuildsQuerySchema,
    handler: async ({ ctx, query }) => ok(await listCurrentUserGuilds(ctx, query)),
  }),
];
