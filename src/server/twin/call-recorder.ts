/** A request or frame body as recorded: text up to RECORDED_BODY_BYTES; a multipart or binary body only by its type (text null). */
export type RecordedBody = { content_type: string | null; text: string | null; truncated: boolean };

/** One REST request of an application's bot or of a user's token granted to it. */
export type RestCall = {
  id: number;
  /** When it was answered, on the twin's clock. */
  at: string;
  kind: "rest";
  method: string;
  path: string;
  /** The route table's method and template (`POST /channels/:channelId/messages`); null for a path no route serves. */
  route: string | null;
  status: number;
  duration_ms: number;
  /** The rate limit bucket counted: its name and the X-RateLimit-Bucket hash the caller saw. */
  bucket: { name: string; hash: string } | null;
  request_bytes: number;
  response_bytes: number;
  request_body: RecordedBody | null;
  response_body: RecordedBody | null;
  user_id: string;
  actor: "bot" | "bearer";
};

/** One gateway frame of a session of the application (its bot's, or a player's), or its close. */
export type GatewayCall = {
  id: number;
  at: string;
  kind: "gateway";
  /** "in": from the client; "out": sent by the gateway. */
  direction: "in" | "out";
  session_id: string;
  op: number | null;
  t: string | null;
  s: number | null;
  bytes: number;
  body: RecordedBody | null;
  close_code?: number;
};

export type RecordedCall = RestCall | GatewayCall;
export type NewCall = Omit<RestCall, "id" | "at"> | Omit<GatewayCall, "id" | "at">;

export type StatusClass = "2xx" | "4xx" | "5xx" | "429";
export type CallQuery = { after?: number; limit: number; kind?: RecordedCall["kind"]; status?: StatusClass };

/** Calls kept per application: the latest, the oldest dropped. */
const CALLS_PER_APPLICATION = 2_000;
/** Bytes of a body kept as text. */
export const RECORDED_BODY_BYTES = 8 * 1024;
/** Calls one read answers at most (the twin API's and the Inspector's). */
export const MAX_CALLS_PER_READ = 500;
// Applications recorded at once; past it the one recorded first is forgotten (a twin holds a few).
const MAX_APPLICATIONS = 256;

/** The latest calls of one application, oldest first, in a fixed-size ring. */
class CallRing {
  readonly #items: (RecordedCall | undefined)[];
  #start = 0;
  #size = 0;

  constructor(readonly capacity: number) {
    this.#items = new Array<RecordedCall | undefined>(capacity);
  }

  push(call: RecordedCall): void {
    this.#items[(this.#start + this.#size) % this.capacity] = call;
    if (this.#size < this.capacity) this.#size++;
    else this.#start = (this.#start + 1) % this.capacity;
  }

  at(index: number): RecordedCall {
    return this.#items[(this.#start + index) % this.capacity]!;
  }

  get size(): number {
    return this.#size;
  }
}

/**
 * Test mode's recorder: every REST request and gateway frame of each application, in memory,
 * bounded per application. Ids increase across the process, so `after` pages and polls.
 */
export class CallRecorder {
  readonly #rings = new Map<string, CallRing>();
  readonly #listeners = new Map<string, Set<() => void>>();
  #lastId = 0;

  constructor(readonly capacity = CALLS_PER_APPLICATION) {}

  record(applicationId: string, call: NewCall, at = new Date()): void {
    let ring = this.#rings.get(applicationId);
    if (!ring) {
      if (this.#rings.size >= MAX_APPLICATIONS) this.#rings.delete(this.#rings.keys().next().value!);
      this.#rings.set(applicationId, (ring = new CallRing(this.capacity)));
    }
    ring.push({ ...call, id: ++this.#lastId, at: at.toISOString() });
    for (const listener of this.#listeners.get(applicationId) ?? []) listener();
  }

  /**
   * Matching calls, oldest first: the first `limit` after `after`, or without it the latest
   * `limit`. `next_after` is where the next poll starts: past every call looked at, so calls
   * the filters skip are not read again.
   */
  list(applicationId: string, query: CallQuery): { calls: RecordedCall[]; next_after: number } {
    const ring = this.#rings.get(applicationId);
    const after = query.after ?? 0;
    if (!ring || ring.size === 0) return { calls: [], next_after: after };
    const matches = (call: RecordedCall) => call.id > after && matchesQuery(call, query);
    const calls: RecordedCall[] = [];
    if (query.after === undefined) {
      for (let index = ring.size - 1; index >= 0 && calls.length < query.limit; index--) if (matches(ring.at(index))) calls.push(ring.at(index));
      return { calls: calls.reverse(), next_after: ring.at(ring.size - 1).id };
    }
    for (let index = 0; index < ring.size; index++) {
      const call = ring.at(index);
      if (!matches(call)) continue;
      if (calls.length === query.limit) return { calls, next_after: calls.at(-1)!.id };
      calls.push(call);
    }
    return { calls, next_after: Math.max(after, ring.at(ring.size - 1).id) };
  }

  clear(applicationId: string): void {
    this.#rings.delete(applicationId);
  }

  /** Calls `listener` after each call recorded for the application, until the returned function is called. */
  listen(applicationId: string, listener: () => void): () => void {
    let listeners = this.#listeners.get(applicationId);
    if (!listeners) this.#listeners.set(applicationId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#listeners.delete(applicationId);
    };
  }
}

function matchesQuery(call: RecordedCall, query: CallQuery): boolean {
  if (query.kind && call.kind !== query.kind) return false;
  return !query.status || (call.kind === "rest" && hasStatusClass(call.status, query.status));
}

/** A status filter: a class of hundreds (4xx holds 429 too), or 429 alone, the rate limits. */
export function hasStatusClass(status: number, filter: StatusClass): boolean {
  return filter === "429" ? status === 429 : Math.floor(status / 100) === Number(filter[0]);
}
