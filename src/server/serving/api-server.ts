import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { serveCdn } from "~/server/images/cdn.ts";
import { isWellKnownPath, serveWellKnown } from "~/server/oauth2/metadata.ts";
import { clientAddress, type TrustedProxies } from "~/server/http/client-address.ts";
import { serveNode } from "~/server/http/node-adapter.ts";
import { createServerDispatcher } from "./server-dispatcher.ts";
import type { Serving } from "./serving.ts";

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** The HTTP server of a serving process: REST, CDN, OAuth2 discovery and the gateway, with pages from `pages`. */
export type ApiServer = {
  readonly server: Server;
  /**
   * Graceful stop: requests already received finish (their changes commit and are answered)
   * while bots hear op 7; a request that outlasts `graceMs` is cut off unanswered. Then the
   * serving stops (background work, the gateway, the write path, events, the database).
   */
  stop(graceMs: number): Promise<void>;
};

const FRAMEWORK_API = /^\/api\/(trpc|auth)(\/|$)/;

/**
 * REST and CDN requests go straight to their framework-free handlers; everything else (pages,
 * tRPC, auth) to `pages`. Bots call REST far more often than people load pages, so REST does
 * not pay the page pipeline's cost. OAuth2's discovery documents (/.well-known/...) are served
 * here too. The serving's gateway shares the host and port (upgrades on /gateway).
 */
export function createApiServer(serving: Serving, options: { pages: NodeHandler; trustedProxies: TrustedProxies }): ApiServer {
  const { gateway } = serving;
  if (!gateway) throw new Error("The API server serves the gateway: build its serving with gateway settings (startServing({ gateway }))");
  const dispatch = createServerDispatcher(serving);
  const serveOptions = { trustedProxies: options.trustedProxies };
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    const handler =
      path.startsWith("/api/") && !FRAMEWORK_API.test(path) ? dispatch : path.startsWith("/cdn/") ? serveCdn : isWellKnownPath(path) ? serveWellKnown : null;
    if (!handler) {
      // Pages and sign-in read the client from X-Forwarded-For: only this server's own
      // resolution (the peer, or a trusted proxy's word) reaches them, never a client's.
      req.headers["x-forwarded-for"] =
        clientAddress(req.socket.remoteAddress ?? null, req.headers["x-forwarded-for"]?.toString() ?? null, options.trustedProxies) ?? "";
      return void options.pages(req, res);
    }
    serveNode(handler, req, res, serveOptions);
  });
  server.keepAliveTimeout = 65_000;
  server.on("upgrade", (req, socket, head) => {
    if (new URL(req.url ?? "/", "http://upgrade").pathname.replace(/\/$/, "") === "/gateway") gateway.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  let stopping: Promise<void> | null = null;
  return {
    server,
    stop(graceMs) {
      stopping ??= (async () => {
        const answered = new Promise<void>((resolve) => {
          server.close(() => resolve());
          setTimeout(resolve, graceMs).unref();
        });
        void gateway.close();
        await answered;
        server.closeAllConnections();
        await serving.stop();
      })();
      return stopping;
    },
  };
}
