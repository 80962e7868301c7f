import { Prisma } from "~/generated/prisma/client.ts";
import type { Tx } from "~/server/db/client.ts";
import type { Statements } from "~/server/db/statements.ts";

/**
 * Takes one use of an invite while it is live (under max_uses, not expired) in a change's
 * statements, by one conditional UPDATE so concurrent acceptances never pass max_uses; its
 * uses and max_uses after, or null when it is no longer live.
 */
export async function takeInviteUse(sql: Statements, code: string, maxUses: number, now: Date): Promise<{ uses: number; maxUses: number } | null> {
  const [row] = await sql.all<{ uses: unknown; maxUses: unknown }>(Prisma.sql`
    UPDATE "Invite" SET "uses" = "uses" + 1
    WHERE "code" = ${code} AND ("maxUses" = 0 OR "uses" < ${maxUses}) AND ("expiresAt" IS NULL OR "expiresAt" > ${now})
    RETURNING "uses", "maxUses"`);
  // SQLite answers integers as BigInt.
  return row ? { uses: Number(row.uses), maxUses: Number(row.maxUses) } : null;
}

/** Deletes an invite in a change's statements; whether it was there. */
export async function deleteInviteRow(sql: Statements, code: string): Promise<boolean> {
  return (await sql.run(Prisma.sql`DELETE FROM "Invite" WHERE "code" = ${code}`)) > 0;
}

/** Counts one use of a guild's vanity invite in a change's statements; false when the guild is gone. */
export async function takeVanityUse(sql: Statements, guildId: string): Promise<boolean> {
  return (await sql.run(Prisma.sql`UPDATE "Guild" SET "vanityUses" = "vanityUses" + 1 WHERE "id" = ${guildId}`)) > 0;
}

/** Which of `roleIds` are roles of the guild now, in a change's statements. */
export async function readLiveRoleIds(sql: Statements, guildId: string, roleIds: readonly string[]): Promise<Set<string>> {
  if (roleIds.length === 0) return new Set();
  const rows = await sql.all<{ id: string }>(Prisma.sql`SELECT "id" FROM "Role" WHERE "guildId" = ${guildId} AND "id" IN (${Prisma.join(roleIds)})`);
  return new Set(rows.map((row) => row.id));
}

/** What accepting an invite checks of the user before its change, in one statement. */
export type AcceptFacts = { isMember: boolean; hasTargetUsers: boolean; isTargetUser: boolean };

export async function readAcceptFacts(db: Tx, input: { guildId: string; code: string; userId: string }): Promise<AcceptFacts> {
  const { guildId, code, userId } = input;
  const [row] = await db.$queryRaw<{ isMember: unknown; hasTargetUsers: unknown; isTargetUser: unknown }[]>`
    SELECT
      EXISTS (SELECT 1 FROM "Member" WHERE "guildId" = ${guildId} AND "userId" = ${userId}) AS "isMember",
      EXISTS (SELECT 1 FROM "InviteTargetUser" WHERE "code" = ${code}) AS "hasTargetUsers",
      EXISTS (SELECT 1 FROM "InviteTargetUser" WHERE "code" = ${code} AND "userId" = ${userId}) AS "isTargetUser"`;
  // SQLite answers EXISTS as 0 and 1.
  return { isMember: Boolean(row!.isMember), hasTargetUsers: Boolean(row!.hasTargetUsers), isTargetUser: Boolean(row!.isTargetUser) };
}
