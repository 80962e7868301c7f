import { Prisma, type User } from "~/generated/prisma/client.ts";
import type { Statements } from "~/server/db/statements.ts";

/** What a user object shows of a user (toUserObject). */
export type UserCard = Pick<User, "id" | "username" | "globalName" | "avatar" | "bot" | "system" | "flags">;

type UserCardRow = Omit<UserCard, "bot" | "system" | "flags"> & { bot: unknown; system: unknown; flags: unknown };

/** A user card as the driver answers it, typed as Prisma reads it (SQLite answers booleans as 0 and 1, integers as BigInt). */
export function toUserCard(row: UserCardRow): UserCard {
  return {
    id: row.id,
    username: row.username,
    globalName: row.globalName,
    avatar: row.avatar,
    bot: Boolean(row.bot),
    system: Boolean(row.system),
    flags: Number(row.flags),
  };
}

/** Users as their user objects show them, read in a change's statements (authors of messages); missing ids are left out. */
export async function readUserCards(sql: Statements, ids: readonly string[]): Promise<Map<string, UserCard>> {
  if (ids.length === 0) return new Map();
  const rows = await sql.all<UserCardRow>(
    Prisma.sql`SELECT "id", "username", "globalName", "avatar", "bot", "system", "flags" FROM "User" WHERE "id" IN (${Prisma.join([...new Set(ids)])})`,
  );
  return new Map(rows.map((row) => [row.id, toUserCard(row)]));
}
