import type { Db } from "~/server/db/client.ts";
import type { Runtime } from "./runtime.ts";

// A process-wide value, forced by Next: the REST server and Next's bundles each load this
// module, and a runtime built by one copy must be found by services in every other.
const globalForRuntimes = globalThis as unknown as { guildhallRuntimes?: WeakMap<Db, Runtime> };
const runtimes = (globalForRuntimes.guildhallRuntimes ??= new WeakMap());

/** Makes `runtime` the one services reach through its database (state cache, event delivery, lobby writer). */
export function registerRuntime(runtime: Runtime): void {
  if (runtimes.has(runtime.db)) throw new Error("This database client already has a runtime; build one runtime per database client.");
  runtimes.set(runtime.db, runtime);
}

export function unregisterRuntime(runtime: Runtime): void {
  if (runtimes.get(runtime.db) === runtime) runtimes.delete(runtime.db);
}

/**
 * The runtime built for this database client. Services keep `ctx.db` in their signatures and
 * reach the caches and event delivery through it. A client without one is a programming
 * error: its entry point must build it (createRuntime) before any service runs.
 */
export function runtimeOf(db: Db): Runtime {
  const runtime = runtimes.get(db);
  if (!runtime) {
    throw new Error(
      "No runtime for this database client: the entry point must build one with createRuntime({ db }) (src/server/runtime/create-runtime.ts) " +
        "before services use it, and must not use it after runtime.close().",
    );
  }
  return runtime;
}
