import { ok, route } from "~/server/rest/route.ts";
import { ZApplicationModifyBodySchema } from "./application.schema.ts";
import { getCurrentApplication } from "./application.service.ts";
import { setOwnIntentFlags } from "./intents.ts";

export const applicationRoutes = [
  route({
    method: "GET",
    path: "/applications/@me",
    auth: "bot",
    handler: async ({ ctx }) => ok(await getCurrentApplication(ctx)),
  }),
  route({
    method: "PATCH",
    path: "/applications/@me",
    auth: "bot",
    body: ZApplicationModifyBodySchema.default({}),
    handler: async ({ ctx, body }) => {
      if (body.flags !== undefined) await setOwnIntentFlags(ctx, body.flags);
      return ok(await getCurrentApplication(ctx));
    },
  }),
];
