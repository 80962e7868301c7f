import { Prisma, type Lobby, type LobbyMember, type User } from "~/generated/prisma/client.ts";
import { ApiError } from "~/server/errors.ts";
import { columnDate, type ColumnsOf, type Statements } from "~/server/db/statements.ts";

// The statements of lobby changes (every member upsert and lobby message runs them), read and
// written through the change's statements. Rows come as the driver answers them: SQLite gives
// integers as BigInt, booleans as 0 and 1 and dates as text; each is mapped to Prisma's type.

const text = (value: unknown) => value as string;
const nullableText = (value: unknown) => value as string | null;

function toLobbyRow(row: ColumnsOf<Lobby>): Lobby {
  return {
    id: text(row.id),
    applicationId: text(row.applicationId),
    secret: nullableText(row.secret),
    metadata: nullableText(row.metadata),
    flags: Number(row.flags),
    idleTimeoutSeconds: Number(row.idleTimeoutSeconds),
    lastActivityAt: columnDate(row.lastActivityAt),
    expiresAt: columnDate(row.expiresAt),
    linkedChannelId: nullableText(row.linkedChannelId),
    linkedById: nullableText(row.linkedById),
    createdAt: columnDate(row.createdAt),
  };
}

function toLobbyMemberRow(row: ColumnsOf<LobbyMember>): LobbyMember {
  return {
    lobbyId: text(row.lobbyId),
    userId: text(row.userId),
    applicationId: text(row.applicationId),
    metadata: nullableText(row.metadata),
    flags: Number(row.flags),
    joinedAt: columnDate(row.joinedAt),
  };
}

/** The application's lobby if it is live at `now`; null otherwise. */
export async function readLiveLobby(sql: Statements, applicationId: string, lobbyId: string, now: Date): Promise<Lobby | null> {
  const [row] = await sql.all<ColumnsOf<Lobby>>(
    Prisma.sql`SELECT * FROM "Lobby" WHERE "id" = ${lobbyId} AND "applicationId" = ${applicationId} AND "expiresAt" > ${now}`,
  );
  return row ? toLobbyRow(row) : null;
}

/**
 * Starts a live lobby's idle clock again at `now`; false when the lobby is not live (or not
 * the application's). On PostgreSQL the UPDATE holds the lobby's row until commit.
 */
export async function moveLobbyClock(
  sql: Statements,
  lobby: { id: string; applicationId: string; now: Date; expiresAt: Date; idleTimeoutSeconds: number },
): Promise<boolean> {
  const { id, applicationId, now, expiresAt, idleTimeoutSeconds } = lobby;
  const touched =
    await sql.run(Prisma.sql`UPDATE "Lobby" SET "lastActivityAt" = ${now}, "expiresAt" = ${expiresAt}, "idleTimeoutSeconds" = ${idleTimeoutSeconds}
    WHERE "id" = ${id} AND "applicationId" = ${applicationId} AND "expiresAt" > ${now}`);
  return touched > 0;
}

/** Whether a user may be a member: bots and system users may not. */
export type UserKind = Pick<User, "id" | "bot" | "system">;

/**
 * Holds the users' rows until commit (PostgreSQL), so two changes cannot each add a user's
 * last allowed lobby, and reads what they are once held; unknown ids are left out.
 */
export async function lockUsers(sql: Statements, ids: readonly string[]): Promise<UserKind[]> {
  const rows = await sql.all<ColumnsOf<UserKind>>(
    Prisma.sql`UPDATE "User" SET "id" = "id" WHERE "id" IN (${Prisma.join(ids)}) RETURNING "id", "bot", "system"`,
  );
  return rows.map((row) => ({ id: text(row.id), bot: Boolean(row.bot), system: Boolean(row.system) }));
}

/** How many of these ids are users. */
export async function countUsers(sql: Statements, ids: readonly string[]): Promise<number> {
  const [row] = await sql.all<{ count: unknown }>(Prisma.sql`SELECT COUNT(*) AS "count" FROM "User" WHERE "id" IN (${Prisma.join(ids)})`);
  return Number(row!.count);
}

/** The lobby's members among these users; all of its members when none are named. */
export async function readLobbyMembers(sql: Statements, lobbyId: string, userIds?: readonly string[]): Promise<LobbyMember[]> {
  const rows = await sql.all<ColumnsOf<LobbyMember>>(
    userIds
      ? Prisma.sql`SELECT * FROM "LobbyMember" WHERE "lobbyId" = ${lobbyId} AND "userId" IN (${Prisma.join(userIds)})`
      : Prisma.sql`SELECT * FROM "LobbyMember" WHERE "lobbyId" = ${lobbyId}`,
  );
  return rows.map(toLobbyMemberRow);
}

/** How many members the lobby has. */
export async function countLobbyMembers(sql: Statements, lobbyId: string): Promise<number> {
  const [row] = await sql.all<{ count: unknown }>(Prisma.sql`SELECT COUNT(*) AS "count" FROM "LobbyMember" WHERE "lobbyId" = ${lobbyId}`);
  return Number(row!.count);
}

/** How many lobbies of the application each of these users is in; users in none are left out. */
export async function countLobbiesOf(sql: Statements, applicationId: string, userIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await sql.all<{ userId: string; count: unknown }>(
    Prisma.sql`SELECT "userId", COUNT(*) AS "count" FROM "LobbyMember"
      WHERE "userId" IN (${Prisma.join(userIds)}) AND "applicationId" = ${applicationId} GROUP BY "userId"`,
  );
  return new Map(rows.map((row) => [row.userId, Number(row.count)]));
}

/** The stored fields a member upsert sets; those left out keep their value. */
export type LobbyMemberFields = Partial<Pick<LobbyMember, "metadata" | "flags">>;

/** Writes the given fields of a member; the row as it is then. */
export async function updateLobbyMember(sql: Statements, lobbyId: string, userId: string, fields: LobbyMemberFields): Promise<LobbyMember> {
  const set = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value}`);
  const [row] = await sql.all<ColumnsOf<LobbyMember>>(
    set.length > 0
      ? Prisma.sql`UPDATE "LobbyMember" SET ${Prisma.join(set)} WHERE "lobbyId" = ${lobbyId} AND "userId" = ${userId} RETURNING *`
      : Prisma.sql`SELECT * FROM "LobbyMember" WHERE "lobbyId" = ${lobbyId} AND "userId" = ${userId}`,
  );
  // The caller read the member after holding the lobby's row, so it is still there; as Prisma's P2025 otherwise.
  if (!row) throw new ApiError("NOT_FOUND");
  return toLobbyMemberRow(row);
}

/** Adds a member (joined now); the row as stored. */
export async function insertLobbyMember(
  sql: Statements,
  member: Pick<LobbyMember, "lobbyId" | "userId" | "applicationId"> & LobbyMemberFields,
): Promise<LobbyMember> {
  const row: LobbyMember = { ...member, metadata: member.metadata ?? null, flags: member.flags ?? 0, joinedAt: new Date() };
  await sql.run(Prisma.sql`INSERT INTO "LobbyMember" ("lobbyId", "userId", "applicationId", "metadata", "flags", "joinedAt")
    VALUES (${row.lobbyId}, ${row.userId}, ${row.applicationId}, ${row.metadata}, ${row.flags}, ${row.joinedAt})`);
  return row;
}

/** Removes these members of the lobby. */
export async function deleteLobbyMembers(sql: Statements, lobbyId: string, userIds: readonly string[]): Promise<void> {
  await sql.run(Prisma.sql`DELETE FROM "LobbyMember" WHERE "lobbyId" = ${lobbyId} AND "userId" IN (${Prisma.join(userIds)})`);
}
