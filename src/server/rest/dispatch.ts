import { createHash } from "node:crypto";
import type { z } from "zod";
import { AUDIT_REASON_MAX } from "~/server/audit/audit.schema.ts";
import { hasScope, type Actor } from "~/server/auth/actor.ts";
import { authenticate } from "~/server/auth/tokens.service.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, fromZodError, invalidField } from "~/server/errors.ts";
import { collect, metered } from "~/server/http/body.ts";
import { MAX_BODY_BYTES, MAX_FORM_BYTES, type HttpHandler, type HttpRequest, type HttpResponse } from "~/server/http/http-types.ts";
import { parseMultipart } from "~/server/http/multipart.ts";
import { OAuth2Error } from "~/server/oauth2/oauth2-error.ts";
import { platformErrorOf } from "~/server/platform-error.ts";
import { createUploadMemory, UploadMemoryFull, type UploadLease, type UploadMemory } from "~/server/http/upload-memory.ts";
import { BUCKETS, type BucketName, type BucketSpec, type RateLimiter, type RateLimitState } from "~/server/ratelimit/ratelimit.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { toJson } from "~/server/state/wire-json.ts";
import { recordActivity } from "~/server/users/activity.ts";
import { parseRequestJson } from "~/server/validation/json.ts";
import { refuseNulCharacters } from "~/server/validation/text.ts";
import type { RestContext, RestResult, Route } from "./route.ts";
import { buildRouteTable } from "./route-table.ts";

export type Dispatcher = HttpHandler;

/** What the dispatcher learnt of a request as it answered it: its route, once matched, and its caller, once authenticated. */
export type DispatchFacts = { route: Route | null; actor: Actor | null };
/** The dispatcher reporting what it learnt into `facts`, for test mode's recorder. */
export type RecordableDispatch = (request: HttpRequest, facts: DispatchFacts | null) => Promise<HttpResponse>;
/** What the dispatcher asks of test mode's faults (twin/twin-faults.ts): the answer one gives instead of the call's own, or null to go on. */
export type RestFaults = { answer(route: Route, params: Record<string, string>, actor: Actor | null): Promise<HttpResponse | null> };

const MAJOR_PARAMS = ["guildId", "channelId", "webhookId", "lobbyId"] as const;
const JSON_HEADERS = { "content-type": "application/json" } as const;

/**
 * The REST API as one framework-free function for every `/api[/v10]/...` path. server.ts
 * mounts it on node:http, the Next route handler through fetch-adapter.ts.
 */
export function createDispatcher(options: {
  db: Db;
  limiter: RateLimiter;
  routes: readonly Route[];
  /** Bounds the request bodies held at once; by default its own, at DEFAULT_UPLOAD_MEMORY_BYTES. */
  uploadMemory?: UploadMemory;
  log?: (error: unknown) => void;
  /** Test mode's injected faults (twin/twin-faults.ts), asked once the caller is known and before any rate limit. */
  faults?: RestFaults;
  /** Test mode's recorder (twin/call-capture.ts) around the dispatcher; absent, nothing is recorded. */
  record?: (dispatch: RecordableDispatch) => Dispatcher;
}): Dispatcher {
  const match = buildRouteTable(options.routes);
  const uploadMemory = options.uploadMemory ?? createUploadMemory();
  for (const route of options.routes) {
    // A bucket all callers share, counted before anyone is checked, would let anyone spend it.
    if (route.bucket && (BUCKETS[route.bucket] as BucketSpec).perResource && !route.guard)
      throw new Error(`Route ${route.method} ${route.path}: a shared bucket needs a guard`);
  }
  const log = options.log ?? ((error: unknown) => console.error("[rest] unexpected error", error));

  const dispatch: RecordableDispatch = async (request, facts) => {
    let rateLimit: RateLimitState | null = null;
    let upload: UploadLease | null = null;
    try {
      const queryStart = request.url.indexOf("?");
      const pathname = queryStart < 0 ? request.url : request.url.slice(0, queryStart);
      const segments = pathSegments(pathname);
      if (!segments) return json(404, new ApiError("NOT_FOUND").toBody());
      const found = match(request.method, segments);
      if (found.kind === "not-found") return json(404, new ApiError("NOT_FOUND").toBody());
      if (found.kind === "method-not-allowed") return json(405, new ApiError("METHOD_NOT_ALLOWED").toBody());
      const { route, params } = found;
      if (facts) facts.route = route;

      const authorization = request.header("authorization");
      const actor = authorization ? await authenticate(options.db, authorization) : null;
      if (facts) facts.actor = actor;
      const faulted = options.faults && (await options.faults.answer(route, params, actor));
      if (faulted) return faulted;
      // Counted before credentials are judged: a wrong token spends its sender's address.
      const principal = actor ? `u${actor.userId}` : `ip${request.clientAddress ?? "local"}`;
      const global = await options.limiter.consume("global", "global", principal, true);
      if (global.limited) return rateLimited(global);
      if (authorization && !actor && route.auth !== "none") throw new ApiError("UNAUTHORIZED");
      checkAuth(route, actor);
      if (actor) recordActivity(options.db, actor.userId);

      // The caller's own count first, so attempts the guard refuses limit only the caller.
      const major = MAJOR_PARAMS.map((name) => params[name]).find(Boolean) ?? "";
      const bucket = route.bucket ?? "route";
      rateLimit = await options.limiter.consume(bucket, route.bucket ?? `${route.method} ${route.path}`, `${principal}:${major}`);
      if (rateLimit.limited) return rateLimited(rateLimit);
      const ctx: RestContext = { db: options.db, actor: actor!, auditReason: auditReason(request) };
      if (route.guard) {
        for (const [name, key] of Object.entries(await route.guard({ ctx, params })) as [BucketName, string | null][]) {
          if (!key) continue;
          const shared = await options.limiter.consume(name, name, key);
          if (shared.limited) return rateLimited(shared);
          if (name === bucket) rateLimit = shared;
        }
      }
      if (route.devBucket && actor?.applicationId) {
        const application = await stateCache(options.db).application(actor.applicationId);
        if (application && !application.rateLimitsLifted) {
          const development = await options.limiter.consume(route.devBucket, route.devBucket, `a${actor.applicationId}`);
          if (development.limited) return rateLimited(development);
        }
      }

      const query = route.query ? parseInput(route.query, queryObject(queryStart < 0 ? "" : request.url.slice(queryStart + 1))) : undefined;
      const body = route.body ? parseInput(route.body, await readInput(request, route, (upload = uploadMemory.lease()))) : undefined;
      return withRateLimit(toResponse(await route.handler({ ctx, params, query, body, header: (name) => request.header(name) })), rateLimit);
    } catch (error) {
      return withRateLimit(errorResponse(error, log), rateLimit);
    } finally {
      upload?.release();
    }
  };
  return options.record ? options.record(dispatch) : (request) => dispatch(request, null);
}

/**
 * `/api/v10/a/b` or `/api/a/b` → decoded segments; null for other versions or paths, and for
 * a segment with a NUL byte, which no id, code or token has (and PostgreSQL refuses in text).
 */
export function pathSegments(pathname: string): string[] | null {
  const parts = pathname.split("/").slice(1);
  if (parts[0] !== "api") return null;
  let rest = parts.slice(1);
  if (rest[0] && /^v\d+$/.test(rest[0])) {
    if (rest[0] !== "v10") return null;
    rest = rest.slice(1);
  }
  if (rest.at(-1) === "") rest = rest.slice(0, -1);
  try {
    const segments = rest.map((segment) => decodeURIComponent(segment));
    return segments.some((segment) => segment.includes("\0")) ? null : segments;
  } catch {
    return null;
  }
}

/** Query parameters by name; one that repeats (`author_id=1&author_id=2`, as client libraries send lists) keeps every value in order. */
export function queryObject(search: string): Record<string, string | string[]> {
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

// busboy reads URL-encoded forms too (fields only), which the platform also takes.
const FORM_TYPES = /^(multipart\/form-data|application\/x-www-form-urlencoded)/i;

/**
 * The body as the route takes it, read as it streams in (metered: the route's size limit and
 * the process's upload memory): a form's fields and files, else JSON for routes that take
 * either, and nothing (50035) for form-only ones.
 */
async function readInput(request: HttpRequest, route: Route, upload: UploadLease): Promise<unknown> {
  const contentType = request.header("content-type") ?? "";
  const isForm = Boolean(route.form) && FORM_TYPES.test(contentType);
  if (route.form === true && !isForm) return undefined;
  const maxBytes = route.maxBodyBytes ?? (isForm ? MAX_FORM_BYTES : MAX_BODY_BYTES);
  const chunks = metered(request.stream(), { maxBytes, declaredLength: request.header("content-length"), lease: upload });
  if (isForm) return parseMultipart(chunks, contentType);
  const text = (await collect(chunks)).toString("utf8");
  return text.trim() === "" ? undefined : parseRequestJson(text);
}

/** Parses request input with a zod schema; a failure (or a NUL character anywhere) is the platform's 50035 with field errors. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  refuseNulCharacters(input);
  const result = schema.safeParse(input);
  if (!result.success) throw fromZodError(result.error, input);
  return result.data;
}

export function json(status: number, body: unknown, headers?: Record<string, string>): HttpResponse {
  return { status, headers: headers ? { ...JSON_HEADERS, ...headers } : { ...JSON_HEADERS }, body: toJson(body) };
}

export function toResponse(result: RestResult): HttpResponse {
  if (result.status === 204) return { status: 204, headers: {}, body: null };
  if ("file" in result) return { status: result.status, headers: { ...result.headers }, body: result.file };
  return json(result.status, result.body, result.headers);
}

export function errorResponse(error: unknown, log: (error: unknown) => void): HttpResponse {
  if (error instanceof OAuth2Error) return json(error.status, error.toBody(), error.headers());
  if (error instanceof UploadMemoryFull) return uploadsBusy();
  const platform = platformErrorOf(error);
  if (platform) return json(platform.status, platform.toBody());
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

export function rateLimited(state: RateLimitState): HttpResponse {
  const retryAfter = Math.max(0.001, state.resetAfterMs / 1000);
  const headers: Record<string, string> = {
    ...rateLimitHeaders(state),
    "retry-after": String(Math.ceil(retryAfter)),
    "x-ratelimit-scope": state.global ? "global" : "user",
  };
  if (state.global) headers["x-ratelimit-global"] = "true";
  return json(429, { message: "You are being rate limited.", retry_after: Number(retryAfter.toFixed(3)), global: state.global }, headers);
}

/** Other requests' bodies fill the upload memory: a 429 like a shared bucket's, to try again in a second. */
function uploadsBusy(): HttpResponse {
  const headers = { "retry-after": "1", "x-ratelimit-scope": "shared" };
  return json(429, { message: "The server is receiving too many uploads at once.", retry_after: 1, global: false }, headers);
}

// The platform exposes an opaque bucket id; a stable hash of our bucket name serves.
const bucketHashes = new Map<string, string>();
const bucketNames = new Map<string, string>();
function bucketHash(bucket: string): string {
  let hash = bucketHashes.get(bucket);
  if (!hash) {
    bucketHashes.set(bucket, (hash = createHash("sha1").update(bucket).digest("hex").slice(0, 32)));
    bucketNames.set(hash, bucket);
  }
  return hash;
}

/** The bucket an X-RateLimit-Bucket hash was made from (test mode's recorder shows both). */
export function bucketNameOf(hash: string): string | undefined {
  return bucketNames.get(hash);
}
