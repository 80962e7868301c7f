import "dotenv/config";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { serveCdn } from "~/server/images/cdn.ts";
import { getDispatcher } from "~/server/rest/server-dispatcher.ts";

// Production entry: REST and CDN requests go straight to their framework-free handlers;
// pages, tRPC and auth go to Next. Bots call REST far more often than people load pages,
//so REST does not pay the page pipeline's cost.
// GUILDHALL_REST_ONLY=1 serves REST and CDN without Next: no build needed, no dashboard.
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const restOnly = process.env.GUILDHALL_REST_ONLY === "1";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

const FRAMEWORK_API = /^\/api\/(trpc|auth)(\/|$)/;

function toRequest(req: IncomingMessage): Request {
  const url = `http://${req.headers.host ?? `${host}:${port}`}${req.url ?? "/"}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  if (!headers.has("x-forwarded-for") && req.socket.remoteAddress) headers.set("x-forwarded-for", req.socket.remoteAddress);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: hasBody ? "half" : undefined,
  } as RequestInit);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) return void res.end();
  res.end(Buffer.from(await response.arrayBuffer()));
}

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
  const handleNext = restOnly ? notServed : await startNext();
  const dispatch = getDispatcher();

  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    const handler = path.startsWith("/api/") && !FRAMEWORK_API.test(path) ? dispatch : path.startsWith("/cdn/") ? serveCdn : null;
    if (!handler) return void handleNext(req, res);
    handler(toRequest(req))
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        console.error("[server] request failed", error);
        if (!res.headersSent) res.statusCode = 500;
        res.end();
      });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, host, () => console.log(`Guildhall listening on http://${host}:${port}${restOnly ? " (REST only)" : ""}`));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
