import { processRuntimeOnce } from "./runtime-of.ts";
import { createRuntime, type Runtime } from "./runtime.ts";

// The process's one runtime for Next's handlers (REST under `next dev`/`next start`, tRPC,
// next-auth). Next loads this module once per bundle, so the value is kept with the other
// process-wide one (runtime-of.ts). Under `npm start` server.ts builds it before Next starts
// and Next finds the same object.

/**
 * Builds the process's runtime, with background work, unless it is built already: server.ts
 * calls it before it listens, src/instrumentation.ts before Next serves a request.
 */
export function startProcessRuntime(): Runtime {
  return processRuntimeOnce(() => createRuntime({ background: true }))!;
}

/** The process's runtime, for request handlers; startProcessRuntime built it before the first request. */
export function processRuntime(): Runtime {
  const runtime = processRuntimeOnce();
  if (!runtime) throw new Error("The process runtime is not built: server.ts and src/instrumentation.ts build it (startProcessRuntime) before serving.");
  return runtime;
}
