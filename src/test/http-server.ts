import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { HttpHandler } from "~/server/http/http-types.ts";
import { serveNode, type NodeServeOptions } from "~/server/http/node-adapter.ts";

export type HttpServer = {
  url: (path: string) => string;
  port: () => number;
  /** Sends a request meant for any host to this server instead: a `restClient` over HTTP. */
  fetch: (request: Request) => Promise<Response>;
};

/**
 * Serves a handler over real HTTP on node:http for a test file, as server.ts does, for what
 * only a socket shows: the peer's address, bodies that stream in. `handler` is read per
 * request, so a test may swap it; `url(path)` addresses the server.
 */
export function useHttpServer(handler: () => HttpHandler, options?: NodeServeOptions): HttpServer {
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res) => serveNode(handler(), req, res, options));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const port = () => (server.address() as AddressInfo).port;
  const url = (path: string) => `http://127.0.0.1:${port()}${path}`;
  return {
    port,
    url,
    fetch: async (request) => {
      const { pathname, search } = new URL(request.url);
      const body = request.body ? await request.arrayBuffer() : undefined;
      return fetch(url(pathname + search), { method: request.method, headers: request.headers, body });
    },
  };
}
