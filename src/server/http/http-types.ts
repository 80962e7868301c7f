/** One HTTP request as Guildhall's handlers need it, whichever server received it. */
export type HttpRequest = {
  method: string;
  /** Path and query string as sent: `/api/v10/guilds/1?with_counts=true`. */
  url: string;
  /** A header by lower-case name; null when absent. */
  header(name: string): string | null;
  /** Who is calling, for limits on unauthenticated callers: the proxy's X-Forwarded-For, else the peer. */
  clientAddress: string | null;
  /** The body, empty when there is none; 413 past MAX_BODY_BYTES. */
  bytes(): Promise<Buffer>;
};

export type HttpResponse = { status: number; headers: Record<string, string>; body: string | Uint8Array | null };

/** A framework-free handler: REST (rest/dispatch.ts) and the CDN are mounted both on node:http and in Next. */
export type HttpHandler = (request: HttpRequest) => Promise<HttpResponse>;

/** The largest body read: JSON bodies carry images as base64 data URIs (10 MiB of image, 4/3 as text). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
