// Next calls register() once when its server starts, before any request: the process's
// runtime, background work and (in test mode) twin are built here, not by a request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startProcessServing } = await import("~/server/serving/process-serving.ts");
  startProcessServing();
}
