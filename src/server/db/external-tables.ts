import type { DbProvider } from "./provider.ts";

/**
 * Tables the migrations make in raw SQL because schema.prisma cannot describe them: the
 * message search index (an FTS5 table and its shadow tables on SQLite, a tsvector table
 * with a GIN index on PostgreSQL). Named to the schema engine as external, so its diffs
 * leave them alone instead of dropping them.
 */
const EXTERNAL_TABLES: Record<DbProvider, readonly string[]> = {
  sqlite: ["MessageSearch", "MessageSearch_config", "MessageSearch_data", "MessageSearch_docsize", "MessageSearch_idx"],
  // PostgreSQL wants them qualified by schema.
  postgresql: ["public.MessageSearch"],
};

export function externalTables(provider: DbProvider): string[] {
  return [...EXTERNAL_TABLES[provider]];
}
