import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "./body.ts";
import type { HttpHandler, HttpRequest } from "./http-types.ts";

function fromNode(req: IncomingMessage): HttpRequest {
  const header = (name: string): string | null => {
    const value = req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  };
  return {
    method: req.method ?? "GET",
    url: req.url ?? "/",
    header,
    clientAddress: header("x-forwarded-for") ?? req.socket.remoteAddress ?? null,
    bytes: () => readBody(req, header("content-length")),
    stream: () => streamOf(req),
  };
}

/** The request's chunks; stopping early discards the rest rather than destroying the socket, so the answer still goes out. */
async function* streamOf(req: IncomingMessage): AsyncGenerator<Uint8Array> {
  let finished = false;
  try {
    yield* req.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>;
    finished = true;
  } finally {
    if (!finished) req.resume();
  }
}

/**
 * Serves a handler on node:http directly: no WHATWG Request/Response in between, which
 * costs more than a cached REST answer does.
 */
export function serveNode(handler: HttpHandler, req: IncomingMessage, res: ServerResponse): void {
  handler(fromNode(req))
    .then((response) => {
      res.writeHead(response.status, response.headers);
      res.end(response.body ?? undefined);
    })
    .catch((error: unknown) => {
      console.error("[server] request failed", error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
}
