import type { APIGuildMemberNoUser } from "discord-api-types/v10";
import { Prisma, type Member } from "~/generated/prisma/client.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import type { Statements } from "~/server/db/statements.ts";
import { orderBySnowflake, snowflakeBeyond } from "~/server/db/snowflake-sql.ts";
import { MEMBER_INCLUDE, toMemberFields, type MemberRow } from "./member.dto.ts";

/** One member with user and roles; null for a non-member. */
export function readMember(db: Tx, guildId: string, userId: string): Promise<MemberRow | null> {
  return db.member.findUnique({ where: { guildId_userId: { guildId, userId } }, include: MEMBER_INCLUDE });
}

/** `prefix`: the REST search's name prefix; `search`: the dashboard's words or id (see nameSearch). */
export type MemberPage = { after: string; limit: number; prefix?: string; search?: string; roleId?: string };

const MEMBER_ID = Prisma.raw(`m."userId"`);

/**
 * Members looked up by id in one query. Prisma reads their roles by (guild, user) pairs, two
 * bound values a member, and refuses a statement past its SQLite limit of bound values
 * (P2029 for a page of 1000): a page of 1000 members is read in three lookups.
 */
const ROWS_PER_LOOKUP = 400;

/** Escapes LIKE wildcards so a search for "a_b" matches only that. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `column` LIKE `pattern`, ignoring case. SQLite's LOWER and UPPER fold ASCII only, so both
 * foldings are compared: "Émile" is found by "ém" through UPPER ("ÉMILE" LIKE "ÉM%").
 * PostgreSQL folds every letter, where either comparison alone would do.
 */
function likeIgnoringCase(column: Prisma.Sql, text: string, pattern: (escaped: string) => string): Prisma.Sql {
  const lower = pattern(escapeLike(text.toLowerCase()));
  const upper = pattern(escapeLike(text.toUpperCase()));
  return Prisma.sql`(LOWER(${column}) LIKE ${lower} ESCAPE '\\' OR UPPER(${column}) LIKE ${upper} ESCAPE '\\')`;
}

/** `column` starts with `prefix`, ignoring case. */
function startsWithIgnoringCase(column: Prisma.Sql, prefix: string): Prisma.Sql {
  return likeIgnoringCase(column, prefix, (escaped) => `${escaped}%`);
}

/** The most words a search looks for; more are ignored. */
const SEARCH_WORDS_MAX = 5;
const SNOWFLAKE = /^\d{1,20}$/;

/**
 * The dashboard's search of members and bans: every word typed is in one of `names` (each a
 * user's name column; any part of it, ignoring case), or the whole search is the user's id.
 */
export function nameSearch(search: string, names: readonly Prisma.Sql[], userId: Prisma.Sql): Prisma.Sql {
  const words = search.split(/\s+/).filter(Boolean).slice(0, SEARCH_WORDS_MAX);
  const wordMatches = words.map(
    (word) =>
      Prisma.sql`(${Prisma.join(
        names.map((column) => likeIgnoringCase(column, word, (escaped) => `%${escaped}%`)),
        " OR ",
      )})`,
  );
  const byName = wordMatches.length > 0 ? Prisma.join(wordMatches, " AND ") : Prisma.sql`1 = 0`;
  return SNOWFLAKE.test(search) ? Prisma.sql`((${byName}) OR ${userId} = ${search})` : Prisma.sql`(${byName})`;
}

/**
 * A page of a guild's members ordered by user id, after `after`: optionally only those
 * whose username or nickname starts with `prefix` (case-insensitive), who match the
 * dashboard's `search` (username, global name or nickname) or who hold `roleId`.
 */
export async function readMemberPage(db: Db, guildId: string, page: MemberPage): Promise<MemberRow[]> {
  const conditions = [Prisma.sql`m."guildId" = ${guildId}`, snowflakeBeyond(MEMBER_ID, ">", page.after)];
  if (page.prefix !== undefined) {
    conditions.push(
      Prisma.sql`(${startsWithIgnoringCase(Prisma.raw(`u."username"`), page.prefix)} OR ${startsWithIgnoringCase(Prisma.raw(`m."nick"`), page.prefix)})`,
    );
  }
  if (page.search !== undefined) {
    conditions.push(nameSearch(page.search, [Prisma.raw(`u."username"`), Prisma.raw(`u."globalName"`), Prisma.raw(`m."nick"`)], MEMBER_ID));
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
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += ROWS_PER_LOOKUP) batches.push(ids.slice(i, i + ROWS_PER_LOOKUP).map((row) => row.userId));
  const rows = (
    await Promise.all(batches.map((userIds) => db.member.findMany({ where: { guildId, userId: { in: userIds } }, include: MEMBER_INCLUDE })))
  ).flat();
  const byId = new Map(rows.map((row) => [row.userId, row]));
  return ids.flatMap((row) => byId.get(row.userId) ?? []);
}

type MemberFieldsRow = { [K in keyof Member]: unknown } & { guildId: string; userId: string };

/**
 * Members' own fields (no user) with their role ids, read in a change's statements: message
 * events carry the author's and mentioned members' on every message. Non-members are left out.
 */
export async function readMemberFields(sql: Statements, guildId: string, userIds: readonly string[]): Promise<Map<string, APIGuildMemberNoUser>> {
  if (userIds.length === 0) return new Map();
  const ids = Prisma.join([...new Set(userIds)]);
  const rows = await sql.all<MemberFieldsRow>(Prisma.sql`SELECT * FROM "Member" WHERE "guildId" = ${guildId} AND "userId" IN (${ids})`);
  if (rows.length === 0) return new Map();
  const roles = await sql.all<{ userId: string; roleId: string }>(
    Prisma.sql`SELECT "userId", "roleId" FROM "MemberRole" WHERE "guildId" = ${guildId} AND "userId" IN (${ids})`,
  );
  const date = (value: unknown) => (value === null ? null : new Date(value as string | Date));
  // SQLite answers booleans as 0 and 1 and dates as text.
  return new Map(
    rows.map((row) => {
      const member: Member = {
        guildId,
        userId: row.userId,
        nick: row.nick as string | null,
        avatar: row.avatar as string | null,
        banner: row.banner as string | null,
        joinedAt: date(row.joinedAt)!,
        premiumSince: date(row.premiumSince),
        deaf: Boolean(row.deaf),
        mute: Boolean(row.mute),
        flags: Number(row.flags),
        pending: Boolean(row.pending),
        communicationDisabledUntil: date(row.communicationDisabledUntil),
        bio: row.bio as string | null,
        temporary: Boolean(row.temporary),
      };
      return [row.userId, toMemberFields({ ...member, roles: roles.filter((role) => role.userId === row.userId) })];
    }),
  );
}
