import { AuditLogEvent, GatewayDispatchEvents } from "discord-api-types/v10";
import { Prisma, type User } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { isUniqueViolation } from "~/server/db/prisma-errors.ts";
import { orderBySnowflake, snowflakeBeyond } from "~/server/db/snowflake-sql.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { loadGuildAccess, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { toUserObject, type UserObject } from "~/server/users/user.dto.ts";
import { deleteBannedUserMessages, IN_BAN, messageWindow, type MessageWindow } from "./ban-message-deletion.ts";
import { banDenial, bansDenial, bulkBanDenial, enforce, type Denial } from "./member-rules.ts";
import { nameSearch, readMember } from "./member-queries.ts";
import { targetOf } from "./member.service.ts";
import { removeMembers } from "./membership.ts";
import type { TBanListQuery, TBulkBanBody } from "./member.schema.ts";

export type BanObject = { user: UserObject; reason: string | null };

const toBanObject = (row: { reason: string | null; user: User }): BanObject => ({ user: toUserObject(row.user), reason: row.reason });

/**
 * GET /guilds/{guild.id}/bans: BAN_MEMBERS; ordered by user id, after `after` or, with only
 * `before`, the page just before it. The dashboard also searches them by name or id (nameSearch).
 */
export async function listBans(ctx: ServiceContext, input: { guildId: string; query: TBanListQuery & { search?: string } }): Promise<BanObject[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(bansDenial(access));
  const { limit, before, after, search } = input.query;
  const conditions = [Prisma.sql`b."guildId" = ${access.guild.id}`];
  const bannedId = Prisma.raw(`b."userId"`);
  if (after) conditions.push(snowflakeBeyond(bannedId, ">", after));
  if (before) conditions.push(snowflakeBeyond(bannedId, "<", before));
  if (search) conditions.push(nameSearch(search, [Prisma.raw(`u."username"`), Prisma.raw(`u."globalName"`)], bannedId));
  const backwards = before !== undefined && after === undefined;
  const ids = await ctx.db.$queryRaw<{ userId: string }[]>`
    SELECT b."userId" FROM "Ban" b JOIN "User" u ON u."id" = b."userId"
    WHERE ${Prisma.join(conditions, " AND ")}
    ${orderBySnowflake(bannedId, backwards ? "DESC" : "ASC")} LIMIT ${limit}`;
  if (backwards) ids.reverse();
  const rows = await ctx.db.ban.findMany({ where: { guildId: access.guild.id, userId: { in: ids.map((row) => row.userId) } }, include: { user: true } });
  const byId = new Map(rows.map((row) => [row.userId, row]));
  return ids.flatMap((row) => {
    const ban = byId.get(row.userId);
    return ban ? [toBanObject(ban)] : [];
  });
}

/** GET /guilds/{guild.id}/bans/{user.id}: 10026 Unknown Ban. */
export async function getBan(ctx: ServiceContext, input: { guildId: string; userId: string }): Promise<BanObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(bansDenial(access));
  const ban = await ctx.db.ban.findUnique({ where: { guildId_userId: { guildId: access.guild.id, userId: input.userId } }, include: { user: true } });
  if (!ban) throw new ApiError("UNKNOWN_BAN");
  return toBanObject(ban);
}

/** Why one user cannot be banned by the actor, or null; users must exist (10013). */
async function banCheck(ctx: ServiceContext, access: GuildAccess, user: User): Promise<Denial | null> {
  const member = await readMember(ctx.db, access.guild.id, user.id);
  return banDenial(access, member ? targetOf(access, member) : null);
}

/**
 * Bans inside a change: the ban row (reason from the audit header), removal, Guild Ban Add,
 * audit, and the user's messages of the window (at most `budget` now, the rest in the
 * background; ban-message-deletion.ts). Returns how many messages it deleted.
 */
async function writeBan(change: Change, ctx: ServiceContext, guildId: string, user: User, deletion: BanDeletion): Promise<number> {
  await change.tx.ban.create({ data: { guildId, userId: user.id, reason: ctx.auditReason ?? null } });
  const member = await change.tx.member.findUnique({ where: { guildId_userId: { guildId, userId: user.id } }, select: { userId: true } });
  if (member) await removeMembers(change, guildId, [user]);
  await change.emit(GatewayDispatchEvents.GuildBanAdd, { guild_id: guildId, user: toUserObject(user) });
  await change.audit({ guildId, actionType: AuditLogEvent.MemberBanAdd, targetId: user.id });
  if (!deletion.window) return 0;
  return deleteBannedUserMessages(change, { guildId, userId: user.id, window: deletion.window, budget: deletion.budget });
}

/** What a ban deletes of the user's messages: none, or those of a window, at most `budget` in the ban's change. */
type BanDeletion = { window: MessageWindow | null; budget: number };

function banDeletion(deleteMessageSeconds: number | undefined): BanDeletion {
  return { window: deleteMessageSeconds ? messageWindow(deleteMessageSeconds, new Date()) : null, budget: IN_BAN };
}

/**
 * PUT /guilds/{guild.id}/bans/{user.id}: BAN_MEMBERS; a member must be below the actor and
 * is removed. `deleteMessageSeconds` (0 to 7 days) deletes the user's messages of that window
 * in every channel of the guild. Banning a banned user changes nothing.
 */
export async function banUser(ctx: ServiceContext, input: { guildId: string; userId: string; deleteMessageSeconds?: number }): Promise<void> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const user = await ctx.db.user.findUnique({ where: { id: input.userId } });
  if (!user) throw new ApiError("UNKNOWN_USER");
  enforce(await banCheck(ctx, access, user));
  const deletion = banDeletion(input.deleteMessageSeconds);
  try {
    await runChange(ctx, async (change) => {
      if (await change.tx.ban.findUnique({ where: { guildId_userId: { guildId: access.guild.id, userId: user.id } } })) return;
      await writeBan(change, ctx, access.guild.id, user, deletion);
    });
  } catch (error) {
    // A concurrent request banned them first; banning a banned user changes nothing.
    if (!isUniqueViolation(error)) throw error;
  }
}

/** DELETE /guilds/{guild.id}/bans/{user.id}: BAN_MEMBERS; Guild Ban Remove. */
export async function unbanUser(ctx: ServiceContext, input: { guildId: string; userId: string }): Promise<void> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(bansDenial(access));
  const guildId = access.guild.id;
  await runChange(ctx, async ({ tx, emit, audit }) => {
    const ban = await tx.ban.findUnique({ where: { guildId_userId: { guildId, userId: input.userId } }, include: { user: true } });
    if (!ban) throw new ApiError("UNKNOWN_BAN");
    await tx.ban.delete({ where: { guildId_userId: { guildId, userId: input.userId } } });
    await emit(GatewayDispatchEvents.GuildBanRemove, { guild_id: guildId, user: toUserObject(ban.user) });
    await audit({ guildId, actionType: AuditLogEvent.MemberBanRemove, targetId: input.userId });
  });
}

/**
 * POST /guilds/{guild.id}/bulk-ban: BAN_MEMBERS and MANAGE_GUILD; up to 200 users, with
 * banUser's message deletion for each. Users who cannot be banned (unknown, already banned,
 * not below the actor) are failed_users; when none could be banned, 500000.
 */
export async function bulkBan(
  ctx: ServiceContext,
  input: { guildId: string; body: TBulkBanBody },
): Promise<{ banned_users: string[]; failed_users: string[] }> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(bulkBanDenial(access));
  const userIds = [...new Set(input.body.user_ids)];
  const users = new Map((await ctx.db.user.findMany({ where: { id: { in: userIds } } })).map((user) => [user.id, user]));
  const bannable: User[] = [];
  for (const id of userIds) {
    const user = users.get(id);
    if (user && !(await banCheck(ctx, access, user))) bannable.push(user);
  }
  const banned = await runChange(ctx, async (change) => {
    const already = new Set(
      (await change.tx.ban.findMany({ where: { guildId: access.guild.id, userId: { in: bannable.map((u) => u.id) } }, select: { userId: true } })).map(
        (b) => b.userId,
      ),
    );
    const fresh = bannable.filter((user) => !already.has(user.id));
    // The messages deleted in this change are shared out; the rest go in the background.
    const deletion = banDeletion(input.body.delete_message_seconds ?? undefined);
    for (const user of fresh) deletion.budget -= await writeBan(change, ctx, access.guild.id, user, deletion);
    return fresh.map((user) => user.id);
  });
  if (banned.length === 0) throw new ApiError("FAILED_TO_BAN_USERS");
  const bannedSet = new Set(banned);
  return { banned_users: banned, failed_users: userIds.filter((id) => !bannedSet.has(id)) };
}
