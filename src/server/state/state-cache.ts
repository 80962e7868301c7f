import type { Db } from "~/server/db/client.ts";
import { runtimeOf } from "~/server/runtime/runtime-of.ts";
import type { StateCache } from "./state-cache-store.ts";

// Apart from the cache itself (state-cache-store.ts), which the runtime's type names: a
// module reaching the runtime cannot also be one the runtime is made of.

/** The runtime's cache for this database client, shared by REST, tRPC and the CLI in one process. */
export function stateCache(db: Db): StateCache {
  return runtimeOf(db).stateCache;
}
