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

export type ResourceBucket = { bucket: BucketName; resourceOf(db: Db, params: Record<string, string>): Promise<string | null> };

type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Record<Name, string>
    : Record<never, string>;

export type Route = {
  method: HttpMethod;
  path: string;
  auth: RouteAuth;
  scopes?: readonly OAuth2Scope[];
  /** The rate-limit bucket; defaults to a per-route bucket. */
  bucket?: BucketName;
  /** A second bucket counted per resource the path leads to (a webhook's channel); null skips it. */
  resourceBucket?: ResourceBucket;
  /** A development rate limit counted per application, unless its limits are lifted. */
  devBucket?: BucketName;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body is multipart/form-data (fields as strings, files as Buffers), checked by `body`; "or-json": either. */
  form?: boolean | "or-json";
  maxBodyBytes?: number;
  handler(input: { ctx: RestContext; params: Record<string, string>; query: unknown; body: unknown; header: RequestHeader }): Promise<RestResult>;
};

/** Declares one row of the route table with typed params, query and body. */
export function route<P extends string, A extends RouteAuth, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(def: {
  method: HttpMethod;
  path: P;
  auth: A;
  scopes?: readonly OAuth2Scope[];
  bucket?: BucketName;
  resourceBucket?: ResourceBucket;
  devBucket?: BucketName;
  query?: Q;
  body?: B;
  form?: boolean | "or-json";
  maxBodyBytes?: number;
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
