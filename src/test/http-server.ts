import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { HttpHandler } from "~/server/http/http-types.ts";
import { serveNode, type NodeServeOptions } from "~/server/http/node-adapter.ts";

/**
 * Serves a handler over real HTTP on node:http for a test file, as server.ts does, for what
 * only a socket shows: the peer's address, bodies that stream in. `handler` is read per
 * request, so a test may swap it; `url(path)` addresses the server.
 */
export function useHttpServer(handler: () => HttpHandler, options?: NodeServeOptions): { url(path: string): string; port(): number } {
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
  return { port, url: (path) => `http://127.0.0.1:${port()}${path}` };
}
