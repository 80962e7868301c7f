import { ok, route } from "~/server/rest/route.ts";
import { listCurrentUserConnections } from "./connection.service.ts";

export const connectionRoutes = [
  route({
    method: "GET",
    path: "/users/@me/connections",
    auth: "any",
    scopes: ["connections"],
    open: { to: "outsider", why: "the caller's own connections" },
    handler: async ({ ctx }) => ok(await listCurrentUserConnections(ctx)),
  }),
];
