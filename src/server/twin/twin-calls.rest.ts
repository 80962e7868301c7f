import { z } from "zod";
import { ApiError } from "~/server/errors.ts";
import { noContent, ok } from "~/server/rest/route.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { queryInt, ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { MAX_CALLS_PER_READ } from "./call-recorder.ts";
import { twinRoute, type TwinContext } from "./twin-route.ts";

/** Which recorded calls to read: after an id (a poll), how many, of which kind and status class. */
const ZCallQuerySchema = z.object({
  after: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
  limit: queryInt(1, MAX_CALLS_PER_READ).default(100),
  kind: z.enum(["rest", "gateway"]).optional(),
  status: z.enum(["2xx", "4xx", "5xx", "429"]).optional(),
});

const ZApplicationParamsSchema = z.object({ applicationId: ZSnowflakeSchema });

async function knownApplication(ctx: TwinContext, applicationId: string): Promise<string> {
  if (!ZApplicationParamsSchema.safeParse({ applicationId }).success || !(await stateCache(ctx.runtime.db).application(applicationId)))
    throw new ApiError("UNKNOWN_APPLICATION");
  return applicationId;
}

/**
 * The recorder's rows: what an application's bot and players sent and were answered, over
 * REST and the gateway (the latest 2,000 of each application: CALLS_PER_APPLICATION).
 */
export const callRoutes = [
  twinRoute({
    method: "GET",
    path: "/applications/:applicationId/calls",
    query: ZCallQuerySchema,
    handler: async ({ ctx, params, query }) => ok(ctx.twin.recorder.list(await knownApplication(ctx, params.applicationId), query)),
  }),
  twinRoute({
    method: "DELETE",
    path: "/applications/:applicationId/calls",
    handler: async ({ ctx, params }) => {
      ctx.twin.recorder.clear(await knownApplication(ctx, params.applicationId));
      return noContent();
    },
  }),
];
