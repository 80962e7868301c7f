/** One HTTP request as Guildhall's handlers need it, whichever server received it. */
export type HttpRequest = {
  method: string;
  /** Path and query string as sent: `/api/v10/guilds/1?with_counts=true`. */
  url: string;
  /** A header by lower-case name; null when absent. */
  header(name: string): string | null;
  /** Who is calling, for limits on unauthenticated callers (client-address.ts); null when unknown. */
  clientAddress: string | null;
  /**
   * The body as it arrives, empty when there is none. Returning the iterator early leaves the
   * rest unread (discarded for a moment, then the connection closed, on node:http).
   */
  stream(): AsyncIterable<Uint8Array>;
};

export type HttpResponse = { status: number; headers: Record<string, string>; body: string | Uint8Array | null };

/** A framework-free handler: REST (rest/dispatch.ts) and the CDN are mounted both on node:http and in Next. */
export type HttpHandler = (request: HttpRequest) => Promise<HttpResponse>;

/** The largest body read: JSON bodies carry images as base64 data URIs (10 MiB of image, 4/3 as text). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The largest uploaded file (spec 8: 20 MiB for users, bots, webhooks and interaction responses). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** Files per multipart request. */
export const MAX_FORM_FILES = 10;
/** The largest multipart body, enforced as it streams in: every file at its largest, and room for the other fields. */
export const MAX_FORM_BYTES = MAX_FORM_FILES * MAX_FILE_BYTES + 1024 * 1024;
