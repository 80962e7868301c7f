import { ok, route } from "~/server/rest/route.ts";
import { ZApplicationModifyBodySchema } from "./application.schema.ts";
import { editCurrentApplication, getCurrentApplication } from "./application.service.ts";

export const applicationRoutes = [
  route({
    method: "GET",
    path: "/applications/@me",
    auth: "bot",
    open: { to: "outsider", why: "the caller's own application" },
    handler: async ({ ctx }) => ok(await getCurrentApplication(ctx)),
  }),
  route({
    method: "PATCH",
    path: "/applications/@me",
    auth: "bot",
    open: { to: "outsider", why: "the caller's own application" },
    body: ZApplicationModifyBodySchema.default({}),
    handler: async ({ ctx, body }) => ok(await editCurrentApplication(ctx, body)),
  }),
];
