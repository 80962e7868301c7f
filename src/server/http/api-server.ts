import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { createGateway, type Gateway } from "~/server/gateway/gateway.ts";
import { serveCdn } from "~/server/images/cdn.ts";
import { isWellKnownPath, serveWellKnown } from "~/server/oauth2/metadata.ts";
import { createServerDispatcher } from "~/server/rest/server-dispatcher.ts";
import type { Runtime } from "~/server/runtime/runtime.ts";
import { recordFrames } from "~/server/twin/call-capture.ts";
import { clientAddress, type TrustedProxies } from "./client-address.ts";
import { serveNode } from "./node-adapter.ts";

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** The HTTP server of a runtime: REST, CDN, OAuth2 discovery and the gateway, with pages from `pages`. */
export type ApiServer = {
  readonly server: Server;
  readonly gateway: Gateway;
  /**
   * Graceful stop: requests already received finish (their changes commit and are answered)
   * while bots hear op 7; a request that outlasts `graceMs` is cut off unanswered. Then the
   * runtime closes (background work, the write path, events, the database).
   */
  stop(graceMs: number): Promise<void>;
};

const FRAMEWORK_API = /^\/api\/(trpc|auth)(\/|$)/;

/**
 * REST and CDN requests go straight to their framework-free handlers; everything else (pages,
 * tRPC, auth) to `pages`. Bots call REST far more often than people load pages, so REST does
 * not pay the page pipeline's cost. OAuth2's discovery documents (/.well-known/...) are served
 * here too. The gateway shares the host and port (upgrades on /gateway) and is set as the
 * runtime's, so runtime.close() ends its sessions first.
 */
export function createApiServer(runtime: Runtime, options: { pages: NodeHandler; publicBaseUrl: string; trustedProxies: TrustedProxies }): ApiServer {
  const dispatch = createServerDispatcher(runtime);
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
  const { db } = runtime;
  const { recorder } = runtime.twin ?? {};
  const gateway = createGateway({
    db,
    subscribe: runtime.events.subscribe,
    router: createEventRouter({ db }),
    publicBaseUrl: options.publicBaseUrl,
    trustedProxies: options.trustedProxies,
    frameLog: recorder ? () => recordFrames(recorder) : undefined,
  });
  runtime.gateway = gateway;
  server.on("upgrade", (req, socket, head) => {
    if (new URL(req.url ?? "/", "http://upgrade").pathname.replace(/\/$/, "") === "/gateway") gateway.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  let stopping: Promise<void> | null = null;
  return {
    server,
    gateway,
    stop(graceMs) {
      stopping ??= (async () => {
        const answered = new Promise<void>((resolve) => {
          server.close(() => resolve());
          setTimeout(resolve, graceMs).unref();
        });
        void gateway.close();
        await answered;
        server.closeAllConnections();
        await runtime.close();
      })();
      return stopping;
    },
  };
}
