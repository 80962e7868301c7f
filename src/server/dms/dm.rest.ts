import { ok, route } from "~/server/rest/route.ts";
import { ZCreateDmBodySchema } from "./dm.schema.ts";
import { openDm } from "./dm.service.ts";

export const dmRoutes = [
  route({
    method: "POST",
    path: "/users/@me/channels",
    auth: "bot",
    open: { to: "outsider", why: "the caller's own DM with a user; sending in it is what needs a shared guild" },
    body: ZCreateDmBodySchema,
    handler: async ({ ctx, body }) => ok(await openDm(ctx, body)),
  }),
];
