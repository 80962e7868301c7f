import { env } from "~/env.ts";
import { createUploadMemory } from "~/server/http/upload-memory.ts";
import { createDispatcher, type Dispatcher } from "~/server/rest/dispatch.ts";
import { ROUTES } from "~/server/rest/routes.ts";
import { REST_SECURITY_HEADERS, withHeaders } from "~/server/rest/security-headers.ts";
import { recordRestCalls } from "~/server/twin/call-capture.ts";
import { withTwin } from "~/server/twin/twin-dispatch.ts";
import type { Serving } from "./serving.ts";

/**
 * The REST dispatcher a server mounts (server.ts, Next's route): the runtime's database and
 * limiter, the configured upload memory, and in test mode the twin namespace in front and
 * the recorder of applications' calls around it.
 */
export function createServerDispatcher(serving: Pick<Serving, "runtime" | "twin" | "gateway">): Dispatcher {
  const { runtime, twin } = serving;
  const uploadMemoryMib = env().UPLOAD_MEMORY_MIB;
  return withHeaders(
    withTwin(
      createDispatcher({
        db: runtime.db,
        limiter: runtime.limiter,
        routes: ROUTES,
        uploadMemory: uploadMemoryMib ? createUploadMemory(uploadMemoryMib * 1024 * 1024) : undefined,
        faults: twin?.faults,
        record: twin ? recordRestCalls(twin.recorder, runtime.db) : undefined,
      }),
      serving,
    ),
    REST_SECURITY_HEADERS,
  );
}
