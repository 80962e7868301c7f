import type { Actor } from "~/server/auth/actor.ts";
import { authenticate } from "~/server/auth/tokens.service.ts";
import type { Db } from "~/server/db/client.ts";
import type { FrameLog } from "~/server/gateway/connection-host.ts";
import type { GatewaySessionView } from "~/server/gateway/gateway-types.ts";
import type { HttpRequest, HttpResponse } from "~/server/http/http-types.ts";
import { bucketNameOf, type DispatchFacts, type Dispatcher, type RecordableDispatch } from "~/server/rest/dispatch.ts";
import { RECORDED_BODY_BYTES, type CallRecorder, type GatewayCall, type RecordedBody } from "./call-recorder.ts";

// Bodies shown as text; any other type (multipart forms, files) is recorded by its type and size only.
const TEXT_TYPES = /json|^text\/|x-www-form-urlencoded|xml/i;

/**
 * The REST dispatcher recording each request whose caller belongs to an application (a bot
 * token, or a user's bearer token granted to it), whatever the answer, with what the
 * dispatcher learnt of it (its route and caller). The request body is kept as the route reads
 * it, never read a second time.
 */
export function recordRestCalls(recorder: CallRecorder, db: Db): (dispatch: RecordableDispatch) => Dispatcher {
  return (dispatch) => async (request) => {
    const started = performance.now();
    const facts: DispatchFacts = { route: null, actor: null };
    const body = { read: 0, kept: [] as Buffer[], keptBytes: 0 };
    const tapped: HttpRequest = {
      method: request.method,
      url: request.url,
      header: (name) => request.header(name),
      clientAddress: request.clientAddress,
      stream: () => tap(request.stream(), body),
    };
    const response = await dispatch(tapped, facts);
    const duration = performance.now() - started;
    // An unknown route answers before the caller is read: who asked is still worth showing.
    const actor = facts.actor ?? (facts.route ? null : await authenticate(db, request.header("authorization")));
    if (!isApplicationCaller(actor)) return response;
    const queryStart = request.url.indexOf("?");
    const hash = response.headers["x-ratelimit-bucket"];
    const bucketName = hash ? bucketNameOf(hash) : undefined;
    const declaredLength = Number(request.header("content-length") ?? 0) || 0;
    recorder.record(actor.applicationId, {
      kind: "rest",
      method: request.method,
      path: queryStart < 0 ? request.url : request.url.slice(0, queryStart),
      route: facts.route ? `${facts.route.method} ${facts.route.path}` : null,
      status: response.status,
      duration_ms: Math.round(duration * 100) / 100,
      bucket: hash && bucketName ? { name: bucketName, hash } : null,
      request_bytes: body.read || declaredLength,
      response_bytes: response.body === null ? 0 : typeof response.body === "string" ? Buffer.byteLength(response.body) : response.body.byteLength,
      request_body: body.read ? recordedBody(request.header("content-type"), Buffer.concat(body.kept), body.read) : null,
      response_body: responseBody(response),
      user_id: actor.userId,
      actor: actor.kind,
    });
    return response;
  };
}

function isApplicationCaller(actor: Actor | null): actor is Actor & { applicationId: string; kind: "bot" | "bearer" } {
  return actor !== null && actor.applicationId !== null && actor.kind !== "user";
}

/** The body's chunks passed on as they arrive, its first RECORDED_BODY_BYTES kept. */
async function* tap(chunks: AsyncIterable<Uint8Array>, body: { read: number; kept: Buffer[]; keptBytes: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    body.read += chunk.byteLength;
    if (body.keptBytes <= RECORDED_BODY_BYTES) {
      const part = Buffer.from(chunk.subarray(0, RECORDED_BODY_BYTES + 1 - body.keptBytes));
      body.kept.push(part);
      body.keptBytes += part.byteLength;
    }
    yield chunk;
  }
}

function responseBody(response: HttpResponse): RecordedBody | null {
  if (response.body === null) return null;
  const contentType = response.headers["content-type"] ?? null;
  if (typeof response.body !== "string")
    return recordedBody(contentType, Buffer.from(response.body.subarray(0, RECORDED_BODY_BYTES + 1)), response.body.byteLength);
  const kept = response.body.length > RECORDED_BODY_BYTES ? response.body.slice(0, RECORDED_BODY_BYTES + 1) : response.body;
  return recordedBody(contentType, Buffer.from(kept), Buffer.byteLength(response.body));
}

/** Up to RECORDED_BODY_BYTES of a text body, marked when more was sent; other types by their type alone. */
function recordedBody(contentType: string | null, kept: Buffer, size: number): RecordedBody | null {
  if (size === 0) return null;
  if (contentType && !TEXT_TYPES.test(contentType)) return { content_type: contentType, text: null, truncated: false };
  return { content_type: contentType, text: kept.subarray(0, RECORDED_BODY_BYTES).toString("utf8"), truncated: size > RECORDED_BODY_BYTES };
}

type PendingFrame = { call: Omit<GatewayCall, "id" | "at" | "kind" | "session_id">; at: Date };
// Frames before IDENTIFY or RESUME succeeds: HELLO, the IDENTIFY, a heartbeat or two.
const MAX_PENDING_FRAMES = 16;

/**
 * One gateway connection's frames, recorded under its session's application. Frames before
 * the session is known (HELLO, IDENTIFY) wait and are recorded with it once IDENTIFY or
 * RESUME succeeds; a connection that never gets a session (a wrong token) is no
 * application's, and its frames are dropped.
 */
export function recordFrames(recorder: CallRecorder): FrameLog {
  let session: { applicationId: string; sessionId: string } | null = null;
  let pending: PendingFrame[] = [];
  const add = (call: PendingFrame["call"]) => {
    if (session) recorder.record(session.applicationId, { kind: "gateway", ...call, session_id: session.sessionId });
    else if (pending.length < MAX_PENDING_FRAMES) pending.push({ call, at: new Date() });
  };
  return {
    frame(direction, text) {
      add({ direction, bytes: Buffer.byteLength(text), ...(direction === "in" ? clientFrame(text) : sentFrame(text)) });
    },
    closed(direction, code) {
      add({ direction, op: null, t: null, s: null, bytes: 0, body: null, close_code: code });
    },
    identified(view: GatewaySessionView) {
      session = { applicationId: view.applicationId, sessionId: view.sessionId };
      for (const { call, at } of pending) recorder.record(session.applicationId, { kind: "gateway", ...call, session_id: session.sessionId }, at);
      pending = [];
    },
  };
}

// The gateway serialises op, t and s first (connection.ts): read from the head, not parsed whole.
const SENT_HEAD = /^\{"op":(\d+)(?:,"t":(?:"([A-Z0-9_]+)"|null))?(?:,"s":(\d+|null))?/;

function sentFrame(text: string) {
  const head = SENT_HEAD.exec(text);
  const s = head?.[3];
  return { op: head ? Number(head[1]) : null, t: head?.[2] ?? null, s: s && s !== "null" ? Number(s) : null, body: textBody(text) };
}

/** A client's frame (at most 4096 bytes, checked before), with the token of IDENTIFY or RESUME redacted. */
function clientFrame(text: string) {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    // Not JSON (the connection closes with 4002): a token in it is still no one's to read.
    return { op: null, t: null, s: null, body: textBody(text.replace(/"token"\s*:\s*"[^"]*"?/g, '"token":"[redacted]"')) };
  }
  if (typeof frame !== "object" || frame === null) return { op: null, t: null, s: null, body: textBody(text) };
  const { op, d } = frame as { op?: unknown; d?: unknown };
  const hasToken = typeof d === "object" && d !== null && "token" in d;
  const shown = hasToken ? JSON.stringify({ ...frame, d: { ...d, token: "[redacted]" } }) : text;
  return { op: typeof op === "number" ? op : null, t: null, s: null, body: textBody(shown) };
}

function textBody(text: string): RecordedBody {
  return { content_type: "application/json", text: text.slice(0, RECORDED_BODY_BYTES), truncated: text.length > RECORDED_BODY_BYTES };
}
