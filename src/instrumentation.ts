// Next calls register() once when its server starts, before any request: the process's
// runtime (database, caches, events, background work) is built here, not by a request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startProcessRuntime } = await import("~/server/runtime/next-runtime.ts");
  startProcessRuntime();
}
