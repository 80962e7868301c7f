import { Prisma, type Role } from "~/generated/prisma/client.ts";
import type { ColumnsOf, Statements } from "~/server/db/statements.ts";

type RoleColumns = ColumnsOf<Role>;

/**
 * A role row as the driver answers it, typed as Prisma reads it: SQLite answers integers as
 * BigInt (permissions stays one) and booleans as 0 and 1; PostgreSQL's bigint is a BigInt too.
 */
function toRole(row: RoleColumns): Role {
  const int = (value: unknown) => (value === null ? null : Number(value));
  return {
    id: row.id as string,
    guildId: row.guildId as string,
    name: row.name as string,
    permissions: BigInt(row.permissions as bigint),
    color: Number(row.color),
    secondaryColor: int(row.secondaryColor),
    tertiaryColor: int(row.tertiaryColor),
    hoist: Boolean(row.hoist),
    icon: row.icon as string | null,
    unicodeEmoji: row.unicodeEmoji as string | null,
    position: Number(row.position),
    managed: Boolean(row.managed),
    mentionable: Boolean(row.mentionable),
    flags: Number(row.flags),
    botId: row.botId as string | null,
  };
}

/** Moves every role of the guild but @everyone up one position, in a change's statements; the moved roles as they are then. */
export async function shiftRolesUp(sql: Statements, guildId: string): Promise<Role[]> {
  const rows = await sql.all<RoleColumns>(
    Prisma.sql`UPDATE "Role" SET "position" = "position" + 1 WHERE "guildId" = ${guildId} AND "id" <> ${guildId} AND "position" >= 1 RETURNING *`,
  );
  return rows.map(toRole);
}

/** The columns a new role is given; the rest take their defaults. */
export type NewRole = Pick<Role, "id" | "guildId" | "name" | "position"> & Partial<Omit<Role, "id" | "guildId" | "name" | "position">>;

/** Inserts a role in a change's statements; the row as stored. */
export async function insertRoleRow(sql: Statements, role: NewRole): Promise<Role> {
  const columns = Object.entries(role).filter(([, value]) => value !== undefined);
  const names = Prisma.raw(columns.map(([column]) => `"${column}"`).join(", "));
  const [row] = await sql.all<RoleColumns>(Prisma.sql`INSERT INTO "Role" (${names}) VALUES (${Prisma.join(columns.map(([, value]) => value))}) RETURNING *`);
  return toRole(row!);
}

/** Deletes a role in a change's statements; its icon hash, or undefined when there was no such role. */
export async function deleteRoleRow(sql: Statements, roleId: string): Promise<{ icon: string | null } | undefined> {
  const [row] = await sql.all<{ icon: string | null }>(Prisma.sql`DELETE FROM "Role" WHERE "id" = ${roleId} RETURNING "icon"`);
  return row;
}

/** Deletes the guild's permission overwrites for a role in a change's statements; the channels that had one. */
export async function deleteRoleOverwrites(sql: Statements, guildId: string, roleId: string): Promise<string[]> {
  const rows = await sql.all<{ channelId: string }>(Prisma.sql`
    DELETE FROM "PermissionOverwrite"
    WHERE "targetId" = ${roleId} AND "type" = 0 AND "channelId" IN (SELECT "id" FROM "Channel" WHERE "guildId" = ${guildId})
    RETURNING "channelId"`);
  return rows.map((row) => row.channelId);
}
