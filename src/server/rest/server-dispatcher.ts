import { env } from "~/env.ts";
import { createUploadMemory } from "~/server/http/upload-memory.ts";
import type { Runtime } from "~/server/runtime/runtime.ts";
import { recordRestCalls } from "~/server/twin/call-capture.ts";
import { withTwin } from "~/server/twin/twin-dispatch.ts";
import { createDispatcher, type Dispatcher } from "./dispatch.ts";
import { ROUTES } from "./routes.ts";
import { REST_SECURITY_HEADERS, withHeaders } from "./security-headers.ts";

/**
 * The REST dispatcher a server mounts (server.ts, Next's route): the runtime's database and
 * limiter, the configured upload memory, and in test mode the twin namespace in front and
 * the recorder of applications' calls around it.
 */
export function createServerDispatcher(runtime: Runtime): Dispatcher {
  const uploadMemoryMib = env().UPLOAD_MEMORY_MIB;
  return withHeaders(
    withTwin(
      createDispatcher({
        db: runtime.db,
        limiter: runtime.limiter,
        routes: ROUTES,
        uploadMemory: uploadMemoryMib ? createUploadMemory(uploadMemoryMib * 1024 * 1024) : undefined,
        faults: runtime.twin?.faults,
        record: runtime.twin ? recordRestCalls(runtime.twin.recorder, runtime.db) : undefined,
      }),
      runtime,
    ),
    REST_SECURITY_HEADERS,
  );
}
