// One translation of what a request threw into the platform's error, for REST's envelope and
// tRPC's codes alike, so the same failure answers the same way on every face.
import { isRecordNotFound } from "~/server/db/prisma-errors.ts";
import { ApiError } from "~/server/errors.ts";

/**
 * The platform error a thrown value stands for, or null for a failure nobody meant (a bug, a
 * database fault), which each face logs and answers with a generic 500.
 */
export function platformErrorOf(thrown: unknown): ApiError | null {
  if (thrown instanceof ApiError) return thrown;
  // A row that a concurrent request removed between a service's read and its write is gone, as if never there.
  if (isRecordNotFound(thrown)) return new ApiError("NOT_FOUND");
  return null;
}
