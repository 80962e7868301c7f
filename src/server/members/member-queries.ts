import type { APIGuildMemberNoUser } from "discord-api-types/v10";
import { Prisma, type Member } from "~/generated/prisma/client.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import { columnDate, columnDateOrNull, type ColumnsOf, type Statements } from "~/server/db/statements.ts";
import { orderBySnowflake, snowflakeBeyond } from "~/server/db/snowflake-sql.ts";
import { MEMBER_INCLUDE, toMemberFields, type MemberCardRow, type MemberRow } from "./member.dto.ts";
import { toUserCard } from "~/server/users/user-queries.ts";

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

type MemberColumns = ColumnsOf<Member>;

/** A member row as the driver answers it, typed as Prisma reads it: SQLite answers integers as BigInt, booleans as 0 and 1 and dates as text. */
function toMember(row: MemberColumns): Member {
  return {
    guildId: row.guildId as string,
    userId: row.userId as string,
    nick: row.nick as string | null,
    avatar: row.avatar as string | null,
    banner: row.banner as string | null,
    joinedAt: columnDate(row.joinedAt),
    premiumSince: columnDateOrNull(row.premiumSince),
    deaf: Boolean(row.deaf),
    mute: Boolean(row.mute),
    flags: Number(row.flags),
    pending: Boolean(row.pending),
    communicationDisabledUntil: columnDateOrNull(row.communicationDisabledUntil),
    bio: row.bio as string | null,
    temporary: Boolean(row.temporary),
    allowDms: Boolean(row.allowDms),
  };
}

type MemberCardColumns = MemberColumns & {
  username: string;
  globalName: string | null;
  userAvatar: string | null;
  bot: unknown;
  system: unknown;
  userFlags: unknown;
  roleId: string | null;
};

/**
 * One member with what their user object shows and their role ids, in one statement (Prisma's
 * include takes three, about four times the CPU); null for a non-member. For a request's
 * reads before its change.
 */
export async function readMemberCard(db: Tx, guildId: string, userId: string): Promise<MemberCardRow | null> {
  const rows = await db.$queryRaw<MemberCardColumns[]>`
    SELECT m.*, u."username", u."globalName", u."avatar" AS "userAvatar", u."bot", u."system", u."flags" AS "userFlags", r."roleId"
    FROM "Member" m JOIN "User" u ON u."id" = m."userId"
    LEFT JOIN "MemberRole" r ON r."guildId" = m."guildId" AND r."userId" = m."userId"
    WHERE m."guildId" = ${guildId} AND m."userId" = ${userId}`;
  const [first] = rows;
  if (!first) return null;
  const { username, globalName, userAvatar, bot, system, userFlags } = first;
  return {
    ...toMember(first),
    user: toUserCard({ id: userId, username, globalName, avatar: userAvatar, bot, system, flags: userFlags }),
    roles: rows.flatMap(({ roleId }) => (roleId === null ? [] : [{ roleId }])),
  };
}

/**
 * Members' own fields (no user) with their role ids, read in a change's statements: message
 * events carry the author's and mentioned members' on every message. Non-members are left out;
 * outside a guild (`guildId` null: a DM) no one is a member.
 */
export async function readMemberFields(sql: Statements, guildId: string | null, userIds: readonly string[]): Promise<Map<string, APIGuildMemberNoUser>> {
  if (!guildId || userIds.length === 0) return new Map();
  const ids = Prisma.join([...new Set(userIds)]);
  const rows = await sql.all<MemberColumns>(Prisma.sql`SELECT * FROM "Member" WHERE "guildId" = ${guildId} AND "userId" IN (${ids})`);
  if (rows.length === 0) return new Map();
  const roles = await sql.all<{ userId: string; roleId: string }>(
    Prisma.sql`SELECT "userId", "roleId" FROM "MemberRole" WHERE "guildId" = ${guildId} AND "userId" IN (${ids})`,
  );
  return new Map(
    rows.map((row) => {
      const member = toMember(row);
      return [member.userId, toMemberFields({ ...member, roles: roles.filter((role) => role.userId === member.userId) })];
    }),
  );
}

/** The member columns a change writes. */
export type MemberColumnsUpdate = Partial<Pick<Member, "nick" | "avatar" | "banner" | "bio" | "mute" | "deaf" | "flags" | "communicationDisabledUntil">>;

/** Writes the given columns of a member in a change's statements; the row as it is then, null when they are not a member. */
export async function updateMemberRow(sql: Statements, guildId: string, userId: string, columns: MemberColumnsUpdate): Promise<Member | null> {
  const set = Object.entries(columns)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value}`);
  const where = Prisma.sql`WHERE "guildId" = ${guildId} AND "userId" = ${userId}`;
  const [row] = await sql.all<MemberColumns>(
    set.length > 0 ? Prisma.sql`UPDATE "Member" SET ${Prisma.join(set)} ${where} RETURNING *` : Prisma.sql`SELECT * FROM "Member" ${where}`,
  );
  return row ? toMember(row) : null;
}

/** The columns a new member starts with; the rest take their defaults. */
export type NewMember = Pick<Member, "guildId" | "userId" | "nick" | "mute" | "deaf" | "temporary" | "pending" | "flags">;

/** Adds a member in a change's statements; null when they already are one (a concurrent join committed first). */
export async function insertMemberRow(sql: Statements, member: NewMember): Promise<Member | null> {
  const { guildId, userId, nick, mute, deaf, temporary, pending, flags } = member;
  const [row] = await sql.all<MemberColumns>(Prisma.sql`
    INSERT INTO "Member" ("guildId", "userId", "nick", "mute", "deaf", "temporary", "pending", "flags")
    VALUES (${guildId}, ${userId}, ${nick}, ${mute}, ${deaf}, ${temporary}, ${pending}, ${flags})
    ON CONFLICT ("guildId", "userId") DO NOTHING RETURNING *`);
  return row ? toMember(row) : null;
}

/** Gives a member roles and takes others, in a change's statements. */
export async function changeMemberRoles(
  sql: Statements,
  guildId: string,
  userId: string,
  roles: { add: readonly string[]; remove: readonly string[] },
): Promise<void> {
  if (roles.remove.length > 0) {
    await sql.run(Prisma.sql`DELETE FROM "MemberRole" WHERE "guildId" = ${guildId} AND "userId" = ${userId} AND "roleId" IN (${Prisma.join(roles.remove)})`);
  }
  if (roles.add.length > 0) {
    const rows = roles.add.map((roleId) => Prisma.sql`(${guildId}, ${userId}, ${roleId})`);
    await sql.run(Prisma.sql`INSERT INTO "MemberRole" ("guildId", "userId", "roleId") VALUES ${Prisma.join(rows)}`);
  }
}

/** A member's role ids as Prisma's `roles` include reads them, in a change's statements. */
export function readMemberRoleIds(sql: Statements, guildId: string, userId: string): Promise<{ roleId: string }[]> {
  return sql.all<{ roleId: string }>(Prisma.sql`SELECT "roleId" FROM "MemberRole" WHERE "guildId" = ${guildId} AND "userId" = ${userId}`);
}

/** What joining a guild checks of a user, in one statement of a change. */
export type JoinFacts = { isMember: boolean; isBanned: boolean; wasMember: boolean };

export async function readJoinFacts(sql: Statements, guildId: string, userId: string): Promise<JoinFacts> {
  const [row] = await sql.all<{ isMember: unknown; isBanned: unknown; wasMember: unknown }>(Prisma.sql`
    SELECT
      EXISTS (SELECT 1 FROM "Member" WHERE "guildId" = ${guildId} AND "userId" = ${userId}) AS "isMember",
      EXISTS (SELECT 1 FROM "Ban" WHERE "guildId" = ${guildId} AND "userId" = ${userId}) AS "isBanned",
      EXISTS (SELECT 1 FROM "PastMember" WHERE "guildId" = ${guildId} AND "userId" = ${userId}) AS "wasMember"`);
  // SQLite answers EXISTS as 0 and 1.
  return { isMember: Boolean(row!.isMember), isBanned: Boolean(row!.isBanned), wasMember: Boolean(row!.wasMember) };
}
