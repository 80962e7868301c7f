// What Prisma's error codes mean, for the code that decides what a failure is. Read from the
// error's `code` alone, without the generated client, so the CLI can ask before one exists.

function prismaCodeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** A write lost a race on a unique key (two requests creating the same row at once): P2002. */
export function isUniqueViolation(error: unknown): boolean {
  return prismaCodeOf(error) === "P2002";
}

/** An update or delete found no row to change, as when a concurrent request removed it first: P2025. */
export function isRecordNotFound(error: unknown): boolean {
  return prismaCodeOf(error) === "P2025";
}

/** A query on a table that does not exist (a database never migrated): P2021. */
export function isTableMissing(error: unknown): boolean {
  return prismaCodeOf(error) === "P2021";
}
