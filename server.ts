import "dotenv/config";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { env } from "~/env.ts";
import { clientAddress, parseTrustedProxies } from "~/server/http/client-address.ts";
import { serveNode } from "~/server/http/node-adapter.ts";
import { whenHearingEvents } from "~/server/events/fanout.ts";
import { serveCdn } from "~/server/images/cdn.ts";
import { getDispatcher } from "~/server/rest/server-dispatcher.ts";

// Production entry: REST and CDN requests go straight to their framework-free handlers;
// pages, tRPC and auth go to Next. Bots call REST far more often than people load pages,
// so REST does not pay the page pipeline's cost.
// GUILDHALL_REST_ONLY=1 serves REST and CDN without Next: no build needed, no dashboard.
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const restOnly = process.env.GUILDHALL_REST_ONLY === "1";

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
  // With REDIS_URL, other instances' changes must be heard before anything is cached.
  if (!(await whenHearingEvents(10_000))) console.error("[events] not subscribed to Redis yet; caching stays off until the subscription is up");
  const handleNext = restOnly ? notServed : await startNext();
  const dispatch = getDispatcher();
  const serveOptions = { trustedProxies: parseTrustedProxies(env().TRUSTED_PROXIES) };

  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    const handler = path.startsWith("/api/") && !FRAMEWORK_API.test(path) ? dispatch : path.startsWith("/cdn/") ? serveCdn : null;
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
  server.listen(port, host, () => console.log(`Guildhall listening on http://${host}:${port}${restOnly ? " (REST only)" : ""}`));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
