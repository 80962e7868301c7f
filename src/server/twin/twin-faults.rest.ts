import { ApiError } from "~/server/errors.ts";
import { created, noContent, ok } from "~/server/rest/route.ts";
import { ZFaultRuleInputSchema, ZGatewayFaultInputSchema } from "./twin-faults.schema.ts";
import { twinRoute } from "./twin-route.ts";

/** Fault injection: REST rules answered instead of matching calls, and gateway faults applied to live sessions at once. */
export const faultRoutes = [
  twinRoute({
    method: "POST",
    path: "/faults",
    body: ZFaultRuleInputSchema,
    handler: ({ ctx, body }) => Promise.resolve(created(ctx.twin.faults.add(body))),
  }),
  twinRoute({
    method: "GET",
    path: "/faults",
    handler: ({ ctx }) => Promise.resolve(ok(ctx.twin.faults.list())),
  }),
  twinRoute({
    method: "DELETE",
    path: "/faults",
    handler: ({ ctx }) => {
      ctx.twin.faults.clear();
      return Promise.resolve(noContent());
    },
  }),
  twinRoute({
    method: "DELETE",
    path: "/faults/:faultId",
    handler: ({ ctx, params }) => {
      if (!ctx.twin.faults.remove(params.faultId)) throw new ApiError("NOT_FOUND", { message: "Unknown fault" });
      return Promise.resolve(noContent());
    },
  }),
  twinRoute({
    method: "POST",
    path: "/gateway/faults",
    body: ZGatewayFaultInputSchema,
    handler: ({ ctx, body }) => {
      const { gateway } = ctx;
      if (!gateway) throw new ApiError("GATEWAY_NOT_RUNNING");
      return Promise.resolve(ok({ sessions: gateway.injectFault(body.match, body.action) }));
    },
  }),
];
