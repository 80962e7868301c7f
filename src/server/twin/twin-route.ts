import type { z } from "zod";
import type { HttpMethod, ParamsOf, RestResult } from "~/server/rest/route.ts";
import type { Gateway } from "~/server/gateway/gateway.ts";
import type { Runtime } from "~/server/runtime/runtime.ts";
import type { Twin } from "./twin.ts";

/** What a twin route's handler works with: the runtime it controls, its twin state, and the gateway when this process serves one. */
export type TwinContext = { runtime: Runtime; twin: Twin; gateway: Gateway | null };

/** One row of the twin namespace (/api/v10/__twin/...): the path below the namespace, its input schemas and handler. */
export type TwinRoute = {
  method: HttpMethod;
  path: string;
  query?: z.ZodType;
  body?: z.ZodType;
  handler(input: { ctx: TwinContext; params: Record<string, string>; query: unknown; body: unknown }): Promise<RestResult>;
};

/** Declares one twin route with typed params, query and body. */
export function twinRoute<P extends string, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(def: {
  method: HttpMethod;
  path: P;
  query?: Q;
  body?: B;
  handler(input: {
    ctx: TwinContext;
    params: ParamsOf<P>;
    query: Q extends z.ZodType ? z.output<Q> : undefined;
    body: B extends z.ZodType ? z.output<B> : undefined;
  }): Promise<RestResult>;
}): TwinRoute {
  return def;
}
