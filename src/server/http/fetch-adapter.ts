import type { HttpHandler, HttpRequest } from "./http-types.ts";

// Node's ReadableStream is async iterable; the DOM typings do not say so.
function fromFetch(request: Request): HttpRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    url: url.pathname + url.search,
    header: (name) => request.headers.get(name),
    // A route handler is not told who connected, and X-Forwarded-For may be the client's own
    // words: every unauthenticated caller here is one, "local" (server.ts knows the peer).
    clientAddress: null,
    // Returning the stream's iterator early cancels it: the rest is never read.
    stream: () => (request.body ?? new ReadableStream({ start: (controller) => controller.close() })) as unknown as AsyncIterable<Uint8Array>,
  };
}

/** Serves a handler as a WHATWG `(Request) => Response` function: Next route handlers, tests. */
export function fetchHandler(handler: HttpHandler): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await handler(fromFetch(request));
    return new Response(response.body as BodyInit | null, { status: response.status, headers: response.headers });
  };
}
