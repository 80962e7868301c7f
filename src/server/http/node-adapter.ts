import type { IncomingMessage, ServerResponse } from "node:http";
import { clientAddress, type TrustedProxies } from "./client-address.ts";
import type { HttpHandler, HttpRequest } from "./http-types.ts";

export type NodeServeOptions = {
  /** Peers whose X-Forwarded-For names the client (TRUSTED_PROXIES); none by default. */
  trustedProxies?: TrustedProxies;
};

function fromNode(req: IncomingMessage, options: NodeServeOptions): HttpRequest {
  const header = (name: string): string | null => {
    const value = req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  };
  return {
    method: req.method ?? "GET",
    url: req.url ?? "/",
    header,
    clientAddress: clientAddress(req.socket.remoteAddress ?? null, header("x-forwarded-for"), options.trustedProxies ?? null),
    stream: () => streamOf(req),
  };
}

/** The request's chunks; stopping early leaves the rest to finishUnread rather than destroying the socket, so the answer still goes out. */
async function* streamOf(req: IncomingMessage): AsyncGenerator<Uint8Array> {
  let finished = false;
  try {
    yield* req.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>;
    finished = true;
  } finally {
    if (!finished) req.resume();
  }
}

/** How long the rest of a body answered before it was read is still taken in and discarded. */
const DISCARD_MS = 2000;

/**
 * A request answered before its body was all read (refused, or too large): what still arrives
 * is discarded for a moment, so the client gets to read the answer (closing at once can reset
 * the connection under it), then the connection is closed rather than the rest taken in.
 */
function finishUnread(req: IncomingMessage): void {
  if (req.complete) return;
  req.resume();
  setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, DISCARD_MS).unref();
}

/**
 * Serves a handler on node:http directly: no WHATWG Request/Response in between, which
 * costs more than a cached REST answer does.
 */
export function serveNode(handler: HttpHandler, req: IncomingMessage, res: ServerResponse, options: NodeServeOptions = {}): void {
  handler(fromNode(req, options))
    .then((response) => {
      res.writeHead(response.status, response.headers);
      res.end(response.body ?? undefined);
      finishUnread(req);
    })
    .catch((error: unknown) => {
      console.error("[server] request failed", error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
}
