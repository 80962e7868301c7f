import { createHash } from "node:crypto";
import type { z } from "zod";
import { hasScope, type Actor } from "~/server/auth/actor.ts";
import { authenticate } from "~/server/auth/tokens.service.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, fromZodError, invalidField } from "~/server/errors.ts";
import type { RateLimiter, RateLimitState } from "~/server/ratelimit/ratelimit.ts";
import type { RestContext, RestResult, Route } from "./route.ts";
import { buildRouteTable } from "./route-table.ts";

export type Dispatcher = (request: Request) => Promise<Response>;

const MAX_AUDIT_REASON = 512;
const MAJOR_PARAMS = ["guildId", "channelId", "webhookId", "lobbyId"] as const;

/** The framework-free REST entry: `(Request) => Response` for every `/api[/v10]/...` path. */
export function createDispatcher(options: { db: Db; limiter: RateLimiter; routes: readonly Route[]; log?: (error: unknown) => void }): Dispatcher {
  const match = buildRouteTable(options.routes);
  const log = options.log ?? ((error: unknown) => console.error("[rest] unexpected error", error));

  return async function dispatch(request) {
    let rateLimit: RateLimitState | null = null;
    try {
      const segments = pathSegments(new URL(request.url).pathname);
      if (!segments) return json(404, new ApiError("NOT_FOUND").toBody());
      const found = match(request.method, segments);
      if (found.kind === "not-found") return json(404, new ApiError("NOT_FOUND").toBody());
      if (found.kind === "method-not-allowed") return json(405, new ApiError("METHOD_NOT_ALLOWED").toBody());
      const { route, params } = found;

      const authorization = request.headers.get("authorization");
      const actor = authorization ? await authenticate(options.db, authorization) : null;
      if (authorization && !actor && route.auth !== "none") throw new ApiError("UNAUTHORIZED");
      checkAuth(route, actor);

      const principal = actor ? `u${actor.userId}` : `ip${request.headers.get("x-forwarded-for") ?? "local"}`;
      const global = await options.limiter.consume("global", "global", principal, true);
      if (global.limited) return rateLimited(global);
      const major = MAJOR_PARAMS.map((name) => params[name]).find(Boolean) ?? "";
      const bucketId = route.bucket ?? `${route.method} ${route.path}`;
      rateLimit = await options.limiter.consume(route.bucket ?? "route", bucketId, `${principal}:${major}`);
      if (rateLimit.limited) return rateLimited(rateLimit);

      const ctx: RestContext = { db: options.db, actor: actor as Actor, auditReason: auditReason(request), request };
      const query = route.query ? parseInput(route.query, Object.fromEntries(new URL(request.url).searchParams)) : undefined;
      const body = route.body ? parseInput(route.body, await readJson(request)) : undefined;
      return withRateLimit(toResponse(await route.handler({ ctx, params, query, body })), rateLimit);
    } catch (error) {
      return withRateLimit(errorResponse(error, log), rateLimit);
    }
  };
}

/** `/api/v10/a/b` or `/api/a/b` → decoded segments; null for other versions or paths. */
function pathSegments(pathname: string): string[] | null {
  const parts = pathname.split("/").slice(1);
  if (parts[0] !== "api") return null;
  let rest = parts.slice(1);
  if (rest[0] && /^v\d+$/.test(rest[0])) {
    if (rest[0] !== "v10") return null;
    rest = rest.slice(1);
  }
  if (rest.at(-1) === "") rest = rest.slice(0, -1);
  try {
    return rest.map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
}

function checkAuth(route: Route, actor: Actor | null): void {
  if (route.auth === "none") return;
  if (!actor) throw new ApiError("UNAUTHORIZED");
  if (route.auth === "bot" && actor.kind !== "bot") throw new ApiError("UNAUTHORIZED");
  if (route.auth === "bearer" && actor.kind !== "bearer") throw new ApiError("UNAUTHORIZED");
  for (const scope of route.scopes ?? []) if (!hasScope(actor, scope)) throw new ApiError("MISSING_ACCESS");
}

function auditReason(request: Request): string | null {
  const header = request.headers.get("x-audit-log-reason");
  if (header === null) return null;
  let reason: string;
  try {
    reason = decodeURIComponent(header);
  } catch {
    reason = header;
  }
  if (reason.length > MAX_AUDIT_REASON) throw invalidField(["reason"], "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_AUDIT_REASON} or fewer in length.`);
  return reason || null;
}

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError("INVALID_JSON");
  }
}

function parseInput(schema: z.ZodType, input: unknown): unknown {
  const result = schema.safeParse(input);
  if (!result.success) throw fromZodError(result.error, input);
  return result.data;
}

function json(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function toResponse(result: RestResult): Response {
  if (result.status === 204) return new Response(null, { status: 204 });
  if ("raw" in result) return new Response(result.raw, { status: result.status, headers: { "content-type": result.contentType, ...result.headers } });
  return json(result.status, result.body, result.headers);
}

function errorResponse(error: unknown, log: (error: unknown) => void): Response {
  if (error instanceof ApiError) return json(error.status, error.toBody());
  const prismaCode = (error as { code?: unknown } | null)?.code;
  if (prismaCode === "P2025") return json(404, new ApiError("NOT_FOUND").toBody());
  log(error);
  return json(500, new ApiError("INTERNAL").toBody());
}

function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const resetAfter = state.resetAfterMs / 1000;
  return {
    "x-ratelimit-limit": String(state.limit),
    "x-ratelimit-remaining": String(state.remaining),
    "x-ratelimit-reset": ((Date.now() + state.resetAfterMs) / 1000).toFixed(3),
    "x-ratelimit-reset-after": resetAfter.toFixed(3),
    "x-ratelimit-bucket": bucketHash(state.bucket),
  };
}

function withRateLimit(response: Response, state: RateLimitState | null): Response {
  if (!state) return response;
  for (const [name, value] of Object.entries(rateLimitHeaders(state))) response.headers.set(name, value);
  return response;
}

function rateLimited(state: RateLimitState): Response {
  const retryAfter = Math.max(0.001, state.resetAfterMs / 1000);
  const headers: Record<string, string> = { ...rateLimitHeaders(state), "retry-after": String(Math.ceil(retryAfter)), "x-ratelimit-scope": state.global ? "global" : "user" };
  if (state.global) headers["x-ratelimit-global"] = "true";
  return json(429, { message: "You are being rate limited.", retry_after: Number(retryAfter.toFixed(3)), global: state.global }, headers);
}

// The platform exposes an opaque bucket id; a stable hash of our bucket name serves.
const bucketHashes = new Map<string, string>();
function bucketHash(bucket: string): string {
  let hash = bucketHashes.get(bucket);
  if (!hash) bucketHashes.set(bucket, (hash = createHash("sha1").update(bucket).digest("hex").slice(0, 32)));
  return hash;
}
