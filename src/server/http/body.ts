import { ApiError } from "~/server/errors.ts";
import { UploadMemoryFull, type UploadLease } from "./upload-memory.ts";

/**
 * A body's chunks as they arrive, each held against the process's upload memory: 413 as soon
 * as more than `maxBytes` arrive, or are declared, so nothing past it is read. A body that
 * breaks off (the client went away) is a 400 nobody will read, not a server error.
 */
export async function* metered(chunks: AsyncIterable<Uint8Array>, limits: { maxBytes: number; declaredLength: string | null; lease: UploadLease }) {
  if (limits.declaredLength !== null && Number(limits.declaredLength) > limits.maxBytes) throw new ApiError("REQUEST_TOO_LARGE");
  let size = 0;
  try {
    for await (const chunk of chunks) {
      size += chunk.byteLength;
      if (size > limits.maxBytes) throw new ApiError("REQUEST_TOO_LARGE");
      limits.lease.take(chunk.byteLength);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof ApiError || error instanceof UploadMemoryFull) throw error;
    throw new ApiError("INVALID_FORM_BODY", { message: "The request body ended before it was complete" });
  }
}

/** Every chunk as one buffer. */
export async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    size += chunk.byteLength;
  }
  return Buffer.concat(parts, size);
}
