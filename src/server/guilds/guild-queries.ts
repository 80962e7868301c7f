import { Prisma, type Guild } from "~/generated/prisma/client.ts";
import { columnDate, columnDateOrNull, type ColumnsOf, type Statements } from "~/server/db/statements.ts";

type GuildColumns = ColumnsOf<Guild>;

/**
 * A guild row as the driver answers it, typed as Prisma reads it: SQLite answers integers as
 * BigInt (Prisma's adapter asks for safe integers), booleans as 0 and 1 and dates as text.
 */
function toGuildRow(row: GuildColumns): Guild {
  const numbers = Object.fromEntries(Object.entries(row).map(([column, value]) => [column, typeof value === "bigint" ? Number(value) : value]));
  return {
    ...(numbers as Guild),
    widgetEnabled: Boolean(row.widgetEnabled),
    premiumProgressBarEnabled: Boolean(row.premiumProgressBarEnabled),
    onboardingEnabled: Boolean(row.onboardingEnabled),
    invitesDisabledUntil: columnDateOrNull(row.invitesDisabledUntil),
    dmsDisabledUntil: columnDateOrNull(row.dmsDisabledUntil),
    createdAt: columnDate(row.createdAt),
  };
}

/** Writes the given columns of a guild in a change's statements; the row as it is then, null when the guild is gone. */
export async function updateGuildRow(sql: Statements, guildId: string, columns: Partial<Omit<Guild, "id">>): Promise<Guild | null> {
  const set = Object.entries(columns)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value}`);
  const [row] = await sql.all<GuildColumns>(
    set.length > 0
      ? Prisma.sql`UPDATE "Guild" SET ${Prisma.join(set)} WHERE "id" = ${guildId} RETURNING *`
      : Prisma.sql`SELECT * FROM "Guild" WHERE "id" = ${guildId}`,
  );
  return row ? toGuildRow(row) : null;
}
