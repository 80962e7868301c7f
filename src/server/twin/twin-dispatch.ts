import { timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { ApiError } from "~/server/errors.ts";
import { collect, metered } from "~/server/http/body.ts";
import type { HttpRequest } from "~/server/http/http-types.ts";
import { createUploadMemory } from "~/server/http/upload-memory.ts";
import { errorResponse, json, parseInput, pathSegments, queryObject, toResponse, type Dispatcher } from "~/server/rest/dispatch.ts";
import { buildRouteTable } from "~/server/rest/route-table.ts";
import { parseRequestJson } from "~/server/validation/json.ts";
import type { Twin } from "./twin.ts";
import type { TwinContext } from "./twin-route.ts";
import { TWIN_ROUTES } from "./twin-routes.ts";

/** What the namespace is served with: the process's runtime, its twin (null: test mode off) and its gateway, if it serves one. */
type TwinParts = Omit<TwinContext, "twin"> & { twin: Twin | null };

/** The namespace's first path segment: /api/v10/__twin/... */
const TWIN_NAMESPACE = "__twin";
/** Twin requests carry small JSON bodies (rules, users, messages). */
const MAX_TWIN_BODY_BYTES = 1024 * 1024;

/**
 * The REST dispatcher with the twin namespace in front when the process is in test mode. Off,
 * it is the dispatcher itself, and /api/v10/__twin/... is an unknown route (404) like any
 * other. A caller beyond loopback hears the same 404 unless GUILDHALL_TWIN_REMOTE=1.
 */
export function withTwin(dispatch: Dispatcher, parts: TwinParts, log = (error: unknown) => console.error("[twin] unexpected error", error)): Dispatcher {
  const { twin } = parts;
  if (!twin) return dispatch;
  const ctx: TwinContext = { runtime: parts.runtime, twin, gateway: parts.gateway };
  const match = buildRouteTable(TWIN_ROUTES);
  const uploadMemory = createUploadMemory(4 * MAX_TWIN_BODY_BYTES);
  return async function dispatchWithTwin(request) {
    const queryStart = request.url.indexOf("?");
    const segments = pathSegments(queryStart < 0 ? request.url : request.url.slice(0, queryStart));
    if (segments?.[0] !== TWIN_NAMESPACE) return dispatch(request);
    if (!twin.allowRemote && !isLoopback(request.clientAddress)) return json(404, new ApiError("NOT_FOUND").toBody());
    const upload = uploadMemory.lease();
    try {
      if (!holdsToken(request, twin)) throw new ApiError("UNAUTHORIZED");
      const found = match(request.method, segments.slice(1));
      if (found.kind === "not-found") return json(404, new ApiError("NOT_FOUND").toBody());
      if (found.kind === "method-not-allowed") return json(405, new ApiError("METHOD_NOT_ALLOWED").toBody());
      const { route, params } = found;
      const query = route.query ? parseInput(route.query, queryObject(queryStart < 0 ? "" : request.url.slice(queryStart + 1))) : undefined;
      let body: unknown;
      if (route.body) {
        const chunks = metered(request.stream(), { maxBytes: MAX_TWIN_BODY_BYTES, declaredLength: request.header("content-length"), lease: upload });
        const text = (await collect(chunks)).toString("utf8");
        body = parseInput(route.body, text.trim() === "" ? {} : parseRequestJson(text));
      }
      return toResponse(await route.handler({ ctx, params, query, body }));
    } catch (error) {
      return errorResponse(error, log);
    } finally {
      upload.release();
    }
  };
}

/** `Authorization: Twin <token>`, compared in constant time. */
function holdsToken(request: HttpRequest, twin: Twin): boolean {
  const header = request.header("authorization") ?? "";
  if (!header.startsWith("Twin ")) return false;
  const given = Buffer.from(header.slice("Twin ".length));
  const expected = Buffer.from(twin.token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 addresses. */
function isLoopback(address: string | null): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  if (isIP(v4) === 4) return v4.startsWith("127.");
  return address === "::1";
}
