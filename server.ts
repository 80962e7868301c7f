import "dotenv/config";
import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "~/env.ts";
import { createApiServer, type NodeHandler } from "~/server/serving/api-server.ts";
import { parseTrustedProxies } from "~/server/http/client-address.ts";
import { startProcessServing } from "~/server/serving/process-serving.ts";

// Production entry: the API server (REST, CDN, OAuth2 discovery, gateway; src/server/serving/api-server.ts)
// with Next for pages, tRPC and auth. GUILDHALL_REST_ONLY=1 serves REST and CDN without Next:
// no build needed, no dashboard.
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const restOnly = process.env.GUILDHALL_REST_ONLY === "1";
/** How long a stopping server waits for the requests it received to be answered. */
const STOP_GRACE_MS = 10_000;

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
  const trustedProxies = parseTrustedProxies(env().TRUSTED_PROXIES);
  // The process's one serving (the runtime, background work, the gateway, the twin in test
  // mode), before Next starts (it finds the same one) and before anything is served.
  const serving = startProcessServing({ gateway: { publicBaseUrl: env().PUBLIC_BASE_URL, trustedProxies } });
  // With REDIS_URL, other instances' changes must be heard before anything is cached.
  if (!(await serving.runtime.events.whenHearingEvents(10_000)))
    console.error("[events] not subscribed to Redis yet; caching stays off until the subscription is up");
  const pages = restOnly ? notServed : await startNext();
  const api = createApiServer(serving, { pages, trustedProxies });
  // Graceful stop: every bot is told to reconnect (op 7) and resumes on another instance or
  // after the restart; background work stops and events reach Redis before exit.
  const stop = () => void api.stop(STOP_GRACE_MS).finally(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  api.server.listen(port, host, () => {
    console.log(`Guildhall listening on http://${host}:${port}${restOnly ? " (REST only)" : ""}`);
    if (serving.twin) console.log(`Test mode: the twin namespace is at http://${host}:${port}/api/v10/__twin (Authorization: Twin ${serving.twin.token})`);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
