import { createHash } from "node:crypto";
import type { z } from "zod";
import { AUDIT_REASON_MAX } from "~/server/audit/audit.schema.ts";
import { hasScope, type Actor } from "~/server/auth/actor.ts";
import { authenticate } from "~/server/auth/tokens.service.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, fromZodError, invalidField } from "~/server/errors.ts";
import { MAX_FORM_BYTES, type HttpHandler, type HttpRequest, type HttpResponse } from "~/server/http/http-types.ts";
import { parseMultipart } from "~/server/http/multipart.ts";
import { BUCKETS, type BucketSpec, type RateLimiter, type RateLimitState } from "~/server/ratelimit/ratelimit.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { toJson } from "~/server/state/wire-json.ts";
import { recordActivity } from "~/server/users/activity.ts";
import { parseRequestJson } from "~/server/validation/json.ts";
import type { RestContext, RestResult, Route } from "./route.ts";
import { buildRouteTable } from "./route-table.ts";

export type Dispatcher = HttpHandler;

const MAJOR_PARAMS = ["guildId", "channelId", "webhookId", "lobbyId"] as const;
const JSON_HEADERS = { "content-type": "application/json" } as const;

/**
 * The REST API as one framework-free function for every `/api[/v10]/...` path. server.ts
 * mounts it on node:http, the Next route handler through fetch-adapter.ts.
 */
export function createDispatcher(options: { db: Db; limiter: RateLimiter; routes: readonly Route[]; log?: (error: unknown) => void }): Dispatcher {
  const match = buildRouteTable(options.routes);
  const log = options.log ?? ((error: unknown) => console.error("[rest] unexpected error", error));

  return async function dispatch(request) {
    let rateLimit: RateLimitState | null = null;
    try {
      const queryStart = request.url.indexOf("?");
      const pathname = queryStart < 0 ? request.url : request.url.slice(0, queryStart);
      const segments = pathSegments(pathname);
      if (!segments) return json(404, new ApiError("NOT_FOUND").toBody());
      const found = match(request.method, segments);
      if (found.kind === "not-found") return json(404, new ApiError("NOT_FOUND").toBody());
      if (found.kind === "method-not-allowed") return json(405, new ApiError("METHOD_NOT_ALLOWED").toBody());
      const { route, params } = found;

      const authorization = request.header("authorization");
      const actor = authorization ? await authenticate(options.db, authorization) : null;
      if (authorization && !actor && route.auth !== "none") throw new ApiError("UNAUTHORIZED");
      checkAuth(route, actor);
      if (actor) recordActivity(options.db, actor.userId);

      const principal = actor ? `u${actor.userId}` : `ip${request.clientAddress ?? "local"}`;
      const global = await options.limiter.consume("global", "global", principal, true);
      if (global.limited) return rateLimited(global);
      const major = MAJOR_PARAMS.map((name) => params[name]).find(Boolean) ?? "";
      const bucketId = route.bucket ?? `${route.method} ${route.path}`;
      const bucket = route.bucket ?? "route";
      const perResource = (BUCKETS[bucket] as BucketSpec).perResource ?? false;
      rateLimit = await options.limiter.consume(bucket, bucketId, perResource ? major : `${principal}:${major}`);
      if (rateLimit.limited) return rateLimited(rateLimit);
      const resource = route.resourceBucket && (await route.resourceBucket.resourceOf(options.db, params));
      if (resource) {
        const second = await options.limiter.consume(route.resourceBucket!.bucket, route.resourceBucket!.bucket, resource);
        if (second.limited) return rateLimited(second);
      }
      if (route.devBucket && actor?.applicationId) {
        const application = await stateCache(options.db).application(actor.applicationId);
        if (application && !application.rateLimitsLifted) {
          const development = await options.limiter.consume(route.devBucket, route.devBucket, `a${actor.applicationId}`);
          if (development.limited) return rateLimited(development);
        }
      }

      const ctx: RestContext = { db: options.db, actor: actor!, auditReason: auditReason(request) };
      const query = route.query ? parseInput(route.query, queryObject(queryStart < 0 ? "" : request.url.slice(queryStart + 1))) : undefined;
      const body = route.body ? parseInput(route.body, route.form ? await readForm(request, route.form === "or-json") : await readJson(request)) : undefined;
      return withRateLimit(toResponse(await route.handler({ ctx, params, query, body, header: (name) => request.header(name) })), rateLimit);
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

/** Query parameters by name; one that repeats (`author_id=1&author_id=2`, as client libraries send lists) keeps every value in order. */
function queryObject(search: string): Record<string, string | string[]> {
  const values = new Map<string, string | string[]>();
  for (const [key, value] of new URLSearchParams(search)) {
    const seen = values.get(key);
    values.set(key, seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value]);
  }
  // fromEntries defines own properties, so a parameter named __proto__ stays a plain value.
  return Object.fromEntries(values);
}

function checkAuth(route: Route, actor: Actor | null): void {
  if (route.auth === "none") return;
  if (!actor) throw new ApiError("UNAUTHORIZED");
  if (route.auth === "bot" && actor.kind !== "bot") throw new ApiError("UNAUTHORIZED");
  if (route.auth === "bearer" && actor.kind !== "bearer") throw new ApiError("UNAUTHORIZED");
  for (const scope of route.scopes ?? []) if (!hasScope(actor, scope)) throw new ApiError("MISSING_ACCESS");
}

function auditReason(request: HttpRequest): string | null {
  const header = request.header("x-audit-log-reason");
  if (header === null) return null;
  let reason: string;
  try {
    reason = decodeURIComponent(header);
  } catch {
    reason = header;
  }
  if (reason.length > AUDIT_REASON_MAX) throw invalidField(["reason"], "BASE_TYPE_MAX_LENGTH", `Must be ${AUDIT_REASON_MAX} or fewer in length.`);
  return reason || null;
}

/**
 * A multipart/form-data (or URL-encoded) body as fields and files, read as it streams in (files may pass
 * MAX_BODY_BYTES). Otherwise JSON for routes that take either, and nothing (50035) for
 * form-only ones.
 */
async function readForm(request: HttpRequest, alsoJson: boolean): Promise<unknown> {
  const contentType = request.header("content-type") ?? "";
  // busboy reads URL-encoded forms too (fields only), which the platform also takes.
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(contentType)) return alsoJson ? readJson(request) : undefined;
  const declared = request.header("content-length");
  if (declared !== null && Number(declared) > MAX_FORM_BYTES) throw new ApiError("REQUEST_TOO_LARGE");
  return parseMultipart(request.stream(), contentType);
}

async function readJson(request: HttpRequest): Promise<unknown> {
  const text = (await request.bytes()).toString("utf8");
  return text.trim() === "" ? undefined : parseRequestJson(text);
}

/** Parses request input with a zod schema; a failure is the platform's 50035 with field errors. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw fromZodError(result.error, input);
  return result.data;
}

function json(status: number, body: unknown, headers?: Record<string, string>): HttpResponse {
  return { status, headers: headers ? { ...JSON_HEADERS, ...headers } : { ...JSON_HEADERS }, body: toJson(body) };
}

function toResponse(result: RestResult): HttpResponse {
  if (result.status === 204) return { status: 204, headers: {}, body: null };
  if ("file" in result) return { status: result.status, headers: { ...result.headers }, body: result.file };
  return json(result.status, result.body, result.headers);
}

function errorResponse(error: unknown, log: (error: unknown) => void): HttpResponse {
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

function withRateLimit(response: HttpResponse, state: RateLimitState | null): HttpResponse {
  if (state) Object.assign(response.headers, rateLimitHeaders(state));
  return response;
}

function rateLimited(state: RateLimitState): HttpResponse {
  const retryAfter = Math.max(0.001, state.resetAfterMs / 1000);
  const headers: Record<string, string> = {
    ...rateLimitHeaders(state),
    "retry-after": String(Math.ceil(retryAfter)),
    "x-ratelimit-scope": state.global ? "global" : "user",
  };
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
