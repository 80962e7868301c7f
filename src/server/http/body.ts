import { ApiError } from "~/server/errors.ts";
import { MAX_BODY_BYTES } from "./http-types.ts";

/** Reads a body stream, refusing it with 413 once it passes MAX_BODY_BYTES. */
export async function readBody(chunks: AsyncIterable<Uint8Array>, declaredLength: string | null): Promise<Buffer> {
  if (declaredLength !== null && Number(declaredLength) > MAX_BODY_BYTES) throw new ApiError("REQUEST_TOO_LARGE");
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new ApiError("REQUEST_TOO_LARGE");
    parts.push(chunk);
  }
  return Buffer.concat(parts, size);
}
