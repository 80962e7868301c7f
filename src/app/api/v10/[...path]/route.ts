import { fetchHandler } from "~/server/http/fetch-adapter.ts";
import { createServerDispatcher } from "~/server/serving/server-dispatcher.ts";
import { processServing } from "~/server/serving/process-serving.ts";

// The REST API under `next dev`/`next start`; the production server mounts the same
// dispatcher on node:http directly (server.ts).
export const dynamic = "force-dynamic";

let handler: ((request: Request) => Promise<Response>) | undefined;
const handle = (request: Request) => (handler ??= fetchHandler(createServerDispatcher(processServing())))(request);
export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
