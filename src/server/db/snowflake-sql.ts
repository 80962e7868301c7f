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
