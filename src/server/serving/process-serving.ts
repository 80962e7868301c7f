import type { Runtime } from "~/server/runtime/runtime.ts";
import { startServing, type Serving, type ServingOptions } from "./serving.ts";

// The process's one serving for Next's handlers (REST under `next dev`/`next start`, tRPC,
// next-auth) and server.ts. Next loads this module once per bundle, so the value is kept on
// globalThis; under `npm start` server.ts builds it before Next starts and Next finds the
// same object.
const globalForServing = globalThis as unknown as { guildhallServing?: Serving };

/**
 * Builds the process's serving, with background work, unless it is built already: server.ts
 * calls it with its gateway before it listens, src/instrumentation.ts before Next serves a request.
 */
export function startProcessServing(options?: Pick<ServingOptions, "gateway">): Serving {
  return (globalForServing.guildhallServing ??= startServing(options));
}

/** The process's serving, for request handlers; startProcessServing built it before the first request. */
export function processServing(): Serving {
  const serving = globalForServing.guildhallServing;
  if (!serving) throw new Error("The process is not serving yet: server.ts and src/instrumentation.ts build it (startProcessServing) before serving.");
  return serving;
}

/** The process's runtime, for request handlers that need its database. */
export function processRuntime(): Runtime {
  return processServing().runtime;
}
