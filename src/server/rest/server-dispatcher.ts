import { env } from "~/env.ts";
import { startBackgroundWork } from "~/server/background.ts";
import { getDb } from "~/server/db/client.ts";
import { createUploadMemory } from "~/server/http/upload-memory.ts";
import { getRateLimiter } from "~/server/ratelimit/shared-limiter.ts";
import { createDispatcher, type Dispatcher } from "./dispatch.ts";
import { ROUTES } from "./routes.ts";
import { REST_SECURITY_HEADERS, withHeaders } from "./security-headers.ts";

const globalForRest = globalThis as unknown as { guildhallDispatcher?: Dispatcher };

/** The process-wide REST dispatcher on the configured database and rate-limit store; starts the process's background work. */
export function getDispatcher(): Dispatcher {
  startBackgroundWork(getDb());
  const uploadMemoryMib = env().UPLOAD_MEMORY_MIB;
  globalForRest.guildhallDispatcher ??= withHeaders(
    createDispatcher({
      db: getDb(),
      limiter: getRateLimiter(),
      routes: ROUTES,
      uploadMemory: uploadMemoryMib ? createUploadMemory(uploadMemoryMib * 1024 * 1024) : undefined,
    }),
    REST_SECURITY_HEADERS,
  );
  return globalForRest.guildhallDispatcher;
}
