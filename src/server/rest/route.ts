import type { z } from "zod";
import type { Actor, OAuth2Scope } from "~/server/auth/actor.ts";
import type { Db } from "~/server/db/client.ts";
import type { BucketName } from "~/server/ratelimit/ratelimit.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** none: no credentials (webhook tokens, CDN); bot / bearer: that token kind; any: either. */
export type RouteAuth = "none" | "bot" | "bearer" | "any";

export type RestContext<A extends RouteAuth = RouteAuth> = {
  db: Db;
  actor: A extends "none" ? Actor | null : Actor;
  auditReason: string | null;
};

/** A request header by lower-case name; null when absent. */
export type RequestHeader = (name: string) => string | null;

export type RestResult =
  | { status: 200 | 201 | 202; body: unknown; headers?: Record<string, string> }
  /** A body that is not JSON (a CSV file, a PNG image), sent as it is with its headers. */
  | { status: 200; file: string | Uint8Array; headers: Record<string, string> }
  | { status: 204 };

/** The resource a call reaches, as the key of each shared bucket it spends (`{ webhook: id, webhookChannel: channelId }`); null skips one. */
export type ResourceKeys = Partial<Record<BucketName, string | null>>;

/**
 * Who may call a route beyond those its permission names, on purpose, and why. Each level
 * includes the ones before it: "member" any member of the guild or lobby the path names,
 * without any permission; "outsider" also a caller outside it (the route is about the
 * caller's own things, or the resource is discoverable); "token" any valid token of either
 * kind; "anyone" no credentials at all. `noop`: those callers are answered as if it were
 * done, and nothing changes (an idempotent delete of what they cannot see). The route
 * table's authorization test holds every row to it: other callers are refused, and the
 * ones named here are answered.
 */
export type RouteOpen = { to: "member" | "outsider" | "token" | "anyone"; why: string; noop?: true };

export type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Record<Name, string>
    : Record<never, string>;

export type Route = {
  method: HttpMethod;
  path: string;
  auth: RouteAuth;
  scopes?: readonly OAuth2Scope[];
  /** The rate-limit bucket, counted per caller; defaults to a per-route bucket. */
  bucket?: BucketName;
  /**
   * The service's access check for the path's resource, run once the caller is authenticated
   * and before the body is read: throws the service's error (10015, 50013...), or answers the
   * resource's keys in the buckets every caller of it shares (perResource in BUCKETS), which so
   * count only calls that passed. Required with a perResource bucket.
   */
  guard?(input: { ctx: RestContext; params: Record<string, string> }): Promise<ResourceKeys>;
  /** A development rate limit counted per application, unless its limits are lifted. */
  devBucket?: BucketName;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body is multipart/form-data (fields as strings, files as Buffers), checked by `body`; "or-json": either. */
  form?: boolean | "or-json";
  /** The largest body this route reads, 413 as soon as more streams in; by default MAX_FORM_BYTES for a form, else MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  open?: RouteOpen;
  handler(input: { ctx: RestContext; params: Record<string, string>; query: unknown; body: unknown; header: RequestHeader }): Promise<RestResult>;
};

/** Declares one row of the route table with typed params, query and body. */
export function route<P extends string, A extends RouteAuth, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(def: {
  method: HttpMethod;
  path: P;
  auth: A;
  scopes?: readonly OAuth2Scope[];
  bucket?: BucketName;
  guard?(input: { ctx: RestContext<A>; params: ParamsOf<P> }): Promise<ResourceKeys>;
  devBucket?: BucketName;
  query?: Q;
  body?: B;
  form?: boolean | "or-json";
  maxBodyBytes?: number;
  open?: RouteOpen;
  handler(input: {
    ctx: RestContext<A>;
    params: ParamsOf<P>;
    query: Q extends z.ZodType ? z.output<Q> : undefined;
    body: B extends z.ZodType ? z.output<B> : undefined;
    header: RequestHeader;
  }): Promise<RestResult>;
}): Route {
  return def;
}

export const ok = (body: unknown): RestResult => ({ status: 200, body });
export const created = (body: unknown): RestResult => ({ status: 201, body });
/** Taken, not done yet (a search while the guild's index is built). */
export const accepted = (body: unknown): RestResult => ({ status: 202, body });
export const noContent = (): RestResult => ({ status: 204 });
