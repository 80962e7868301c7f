import { ApiError } from "~/server/errors.ts";
import { ok, route } from "~/server/rest/route.ts";
import { ZApplicationModifyBodySchema } from "./application.schema.ts";
import { editApplication, getCurrentApplication } from "./application.service.ts";

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
      if (!ctx.actor.applicationId) throw new ApiError("UNKNOWN_APPLICATION");
      const { flags, description, icon } = body;
      await editApplication(ctx, ctx.actor.applicationId, { description, icon, intents: flags === undefined ? undefined : { flags } });
      return ok(await getCurrentApplication(ctx));
    },
  }),
];
