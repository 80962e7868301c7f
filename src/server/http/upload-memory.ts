import { ApiError } from "~/server/errors.ts";

/** Request bodies held in memory at once, by default (UPLOAD_MEMORY_MIB). */
const DEFAULT_UPLOAD_MEMORY_BYTES = 256 * 1024 * 1024;

/** Refused because other requests' bodies fill the process's upload memory: 429, try again shortly. */
export class UploadMemoryFull extends Error {
  constructor() {
    super("Upload memory is full");
  }
}

/** The bytes one request's body holds: taken chunk by chunk as it arrives, all given back when the request ends. */
export type UploadLease = {
  /** Takes `bytes` more, or throws: 413 when this body alone could never fit, UploadMemoryFull when others' do not leave room. */
  take(bytes: number): void;
  release(): void;
};

export type UploadMemory = { readonly maxBytes: number; inUse(): number; lease(): UploadLease };

/**
 * One process's bound on request bodies held in memory at once. A body that finds it full is
 * refused at once, never made to wait: a slow upload must not hold the others up.
 */
export function createUploadMemory(maxBytes: number = DEFAULT_UPLOAD_MEMORY_BYTES): UploadMemory {
  let inUse = 0;
  return {
    maxBytes,
    inUse: () => inUse,
    lease() {
      let held = 0;
      return {
        take(bytes) {
          if (held + bytes > maxBytes) throw new ApiError("REQUEST_TOO_LARGE");
          if (inUse + bytes > maxBytes) throw new UploadMemoryFull();
          inUse += bytes;
          held += bytes;
        },
        release() {
          inUse -= held;
          held = 0;
        },
      };
    },
  };
}
