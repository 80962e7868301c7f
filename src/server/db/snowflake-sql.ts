import { Prisma } from "~/generated/prisma/client.ts";

// Snowflakes are stored as text but order as numbers: by length, then as text. Both
// databases agree on that, so pages by id use these instead of comparing the text alone.

/** `column` holds a snowflake greater (`>`) or smaller (`<`) than `id`. */
export function snowflakeBeyond(column: Prisma.Sql, side: ">" | "<", id: string): Prisma.Sql {
  const op = Prisma.raw(side);
  return Prisma.sql`(LENGTH(${column}) ${op} ${id.length} OR (LENGTH(${column}) = ${id.length} AND ${column} ${op} ${id}))`;
}

/** ORDER BY a snowflake column, ascending or descending. */
export function orderBySnowflake(column: Prisma.Sql, direction: "ASC" | "DESC" = "ASC"): Prisma.Sql {
  const dir = Prisma.raw(direction);
  return Prisma.sql`ORDER BY LENGTH(${column}) ${dir}, ${column} ${dir}`;
}

/**
 * `column` holds a snowflake from `low` to `high`, both included. When both have as many digits
 * (every id for decades), a plain range of text, which an index on the column serves.
 */
export function snowflakeBetween(column: Prisma.Sql, low: string, high: string): Prisma.Sql {
  if (low.length === high.length) return Prisma.sql`(LENGTH(${column}) = ${low.length} AND ${column} >= ${low} AND ${column} <= ${high})`;
  return Prisma.sql`((LENGTH(${column}) > ${low.length} OR (LENGTH(${column}) = ${low.length} AND ${column} >= ${low}))
    AND (LENGTH(${column}) < ${high.length} OR (LENGTH(${column}) = ${high.length} AND ${column} <= ${high})))`;
}
