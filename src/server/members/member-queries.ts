import { Prisma } from "~/generated/prisma/client.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import { orderBySnowflake, snowflakeBeyond } from "~/server/db/snowflake-sql.ts";
import { MEMBER_INCLUDE, type MemberRow } from "./member.dto.ts";

/** One member with user and roles; null for a non-member. */
export function readMember(db: Tx, guildId: string, userId: string): Promise<MemberRow | null> {
  return db.member.findUnique({ where: { guildId_userId: { guildId, userId } }, include: MEMBER_INCLUDE });
}

export type MemberPage = { after: string; limit: number; prefix?: string; roleId?: string };

const MEMBER_ID = Prisma.raw(`m."userId"`);

/** Escapes LIKE wildcards so a search for "a_b" matches only that. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column` starts with `prefix`, ignoring case. SQLite's LOWER and UPPER fold ASCII only, so
 * both foldings are compared: "Émile" is found by "ém" through UPPER ("ÉMILE" LIKE "ÉM%").
 * PostgreSQL folds every letter, where either comparison alone would do.
 */
export function startsWithIgnoringCase(column: Prisma.Sql, prefix: string): Prisma.Sql {
  const lower = likePrefix(prefix.toLowerCase());
  const upper = likePrefix(prefix.toUpperCase());
  return Prisma.sql`(LOWER(${column}) LIKE ${lower} ESCAPE '\\' OR UPPER(${column}) LIKE ${upper} ESCAPE '\\')`;
}

/**
 * A page of a guild's members ordered by user id, after `after`: optionally only those
 * whose username or nickname starts with `prefix` (case-insensitive) or who hold `roleId`.
 */
export async function readMemberPage(db: Db, guildId: string, page: MemberPage): Promise<MemberRow[]> {
  const conditions = [Prisma.sql`m."guildId" = ${guildId}`, snowflakeBeyond(MEMBER_ID, ">", page.after)];
  if (page.prefix !== undefined) {
    conditions.push(
      Prisma.sql`(${startsWithIgnoringCase(Prisma.raw(`u."username"`), page.prefix)} OR ${startsWithIgnoringCase(Prisma.raw(`m."nick"`), page.prefix)})`,
    );
  }
  if (page.roleId !== undefined) {
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM "MemberRole" r WHERE r."guildId" = m."guildId" AND r."userId" = m."userId" AND r."roleId" = ${page.roleId})`,
    );
  }
  const ids = await db.$queryRaw<{ userId: string }[]>`
    SELECT m."userId" FROM "Member" m JOIN "User" u ON u."id" = m."userId"
    WHERE ${Prisma.join(conditions, " AND ")}
    ${orderBySnowflake(MEMBER_ID)} LIMIT ${page.limit}`;
  if (ids.length === 0) return [];
  const rows = await db.member.findMany({ where: { guildId, userId: { in: ids.map((row) => row.userId) } }, include: MEMBER_INCLUDE });
  const byId = new Map(rows.map((row) => [row.userId, row]));
  return ids.flatMap((row) => byId.get(row.userId) ?? []);
}
