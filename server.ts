import "dotenv/config";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { env } from "~/env.ts";
import { clientAddress, parseTrustedProxies } from "~/server/http/client-address.ts";
import { serveNode } from "~/server/http/node-adapter.ts";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { createGateway } from "~/server/gateway/gateway.ts";
import { serveCdn } from "~/server/images/cdn.ts";
import { isWellKnownPath, serveWellKnown } from "~/server/oauth2/metadata.ts";
import { createServerDispatcher } from "~/server/rest/server-dispatcher.ts";
import { startProcessRuntime } from "~/server/runtime/next-runtime.ts";

// Production entry: REST and CDN requests go straight to their framework-free handlers;
// pages, tRPC and auth go to Next. Bots call REST far more often than people load pages,
// so REST does not pay the page pipeline's cost.
// OAuth2's discovery documents (/.well-known/...) are served here too, so clients find them in
// either mode. GUILDHALL_REST_ONLY=1 serves REST and CDN without Next: no build needed, no dashboard.
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const restOnly = process.env.GUILDHALL_REST_ONLY === "1";
/** How long a stopping server waits for the requests it received to be answered. */
const STOP_GRACE_MS = 10_000;

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

const FRAMEWORK_API = /^\/api\/(trpc|auth)(\/|$)/;

async function startNext(): Promise<NodeHandler> {
  const { default: next } = await import("next");
  const app = next({ dev: false, hostname: host, port });
  await app.prepare();
  return app.getRequestHandler();
}

function notServed(_req: IncomingMessage, res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader("content-type", "text/plain");
  res.end("Not found: this server runs with GUILDHALL_REST_ONLY=1 (REST API and CDN only).\n");
}

async function main(): Promise<void> {
  // The process's one runtime (database, Redis, caches, events, background work), before
  // Next starts (it finds the same one) and before anything is served.
  const runtime = startProcessRuntime();
  // With REDIS_URL, other instances' changes must be heard before anything is cached.
  if (!(await runtime.events.whenHearingEvents(10_000))) console.error("[events] not subscribed to Redis yet; caching stays off until the subscription is up");
  const handleNext = restOnly ? notServed : await startNext();
  const dispatch = createServerDispatcher(runtime);
  const serveOptions = { trustedProxies: parseTrustedProxies(env().TRUSTED_PROXIES) };

  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    const handler =
      path.startsWith("/api/") && !FRAMEWORK_API.test(path) ? dispatch : path.startsWith("/cdn/") ? serveCdn : isWellKnownPath(path) ? serveWellKnown : null;
    if (!handler) {
      // Pages and sign-in read the client from X-Forwarded-For: only this server's own
      // resolution (the peer, or a trusted proxy's word) reaches them, never a client's.
      req.headers["x-forwarded-for"] =
        clientAddress(req.socket.remoteAddress ?? null, req.headers["x-forwarded-for"]?.toString() ?? null, serveOptions.trustedProxies) ?? "";
      return void handleNext(req, res);
    }
    serveNode(handler, req, res, serveOptions);
  });
  server.keepAliveTimeout = 65_000;
  // The gateway shares the REST API's host and port; other upgrade paths are not served.
  const { db } = runtime;
  const gateway = createGateway({ db, subscribe: runtime.events.subscribe, router: createEventRouter({ db }), publicBaseUrl: env().PUBLIC_BASE_URL });
  runtime.gateway = gateway;
  server.on("upgrade", (req, socket, head) => {
    if (new URL(req.url ?? "/", "http://upgrade").pathname.replace(/\/$/, "") === "/gateway") gateway.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  // Graceful stop: every bot is told to reconnect (op 7) and resumes on another instance or
  // after the restart; then background work stops and events reach Redis before exit.
  let isStopping = false;
  const stop = () => {
    if (isStopping) return;
    isStopping = true;
    // Requests already received finish (their changes commit and are answered) before the
    // runtime closes; a request that outlasts the grace is cut off, unanswered. Bots hear op 7
    // meanwhile, and their sockets close.
    const answered = new Promise<void>((resolve) => {
      server.close(() => resolve());
      setTimeout(resolve, STOP_GRACE_MS).unref();
    });
    void gateway.close();
    void answered
      .then(() => {
        server.closeAllConnections();
        return runtime.close();
      })
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  server.listen(port, host, () => console.log(`Guildhall listening on http://${host}:${port}${restOnly ? " (REST only)" : ""}`));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
