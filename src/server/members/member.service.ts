import { AuditLogEvent, GatewayDispatchEvents } from "discord-api-types/v10";
import { requireIntentOf } from "~/server/applications/intents.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Tx } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange, type ChangeContext } from "~/server/events/change.ts";
import { loadGuildAccess, loadGuildState, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { toMemberObject, memberEventData, MEMBER_INCLUDE, type MemberCardRow, type MemberObject } from "./member.dto.ts";
import { enforce, kickDenial, type MemberTarget } from "./member-rules.ts";
import { readMember, readMemberCard, readMemberPage } from "./member-queries.ts";
import { preserialize } from "~/server/state/wire-json.ts";
import { joinGuild, removeMembers } from "./membership.ts";
import type { TMemberListQuery, TMemberSearchQuery } from "./member.schema.ts";

/** 10007 Unknown Member for a user outside the guild, 10013 Unknown User when there is no such user. */
async function notAMember(db: Tx, userId: string): Promise<ApiError> {
  return new ApiError((await db.user.findUnique({ where: { id: userId }, select: { id: true } })) ? "UNKNOWN_MEMBER" : "UNKNOWN_USER");
}

/** A member the actor acts on: 10007 Unknown Member (10013 when there is no such user). */
export async function loadTarget(db: Tx, access: GuildAccess, userId: string): Promise<{ row: MemberCardRow; target: MemberTarget }> {
  const row = await readMemberCard(db, access.guild.id, userId);
  if (!row) throw await notAMember(db, userId);
  return { row, target: targetOf(access, row) };
}

export function targetOf(access: GuildAccess, row: MemberCardRow): MemberTarget {
  return { userId: row.userId, access: access.state.accessOf(row.userId, { ...row, roleIds: row.roles.map((r) => r.roleId) }) };
}

// Member objects and list pages are kept with the guild's cached state: every change to a
// member is a guild event, which drops them. (A change to a user's profile, once there is
// one, must announce itself to the user's guilds for the same reason.)

/** GET /guilds/{guild.id}/members/{user.id}: members only. */
export async function getMember(ctx: ServiceContext, input: { guildId: string; userId: string }): Promise<MemberObject> {
  const { state } = await loadGuildAccess(ctx, input.guildId);
  const member = await state.answer(`member ${input.userId}`, async () => {
    const row = await readMember(ctx.db, input.guildId, input.userId);
    return row && preserialize(toMemberObject(row));
  });
  if (member) return member;
  throw await notAMember(ctx.db, input.userId);
}

/** GET /guilds/{guild.id}/members (spec 4.2): ordered by user id after `after`; bots need the GUILD_MEMBERS intent. */
export async function listMembers(ctx: ServiceContext, input: { guildId: string; query: TMemberListQuery }): Promise<readonly MemberObject[]> {
  const { state } = await loadGuildAccess(ctx, input.guildId);
  await requireIntentOf(ctx, "GUILD_MEMBERS");
  const { after, limit } = input.query;
  return state.answer(`members ${after} ${limit}`, async () =>
    preserialize((await readMemberPage(ctx.db, input.guildId, { after, limit })).map((row) => preserialize(toMemberObject(row)))),
  );
}

/** GET /guilds/{guild.id}/members/search: username or nickname prefix, case-insensitive. */
export async function searchMembers(ctx: ServiceContext, input: { guildId: string; query: TMemberSearchQuery & { after?: string; roleId?: string } }) {
  const access = await loadGuildAccess(ctx, input.guildId);
  const { query, limit, after = "0", roleId } = input.query;
  return (await readMemberPage(ctx.db, access.guild.id, { prefix: query, limit, after, roleId })).map(toMemberObject);
}

/** DELETE /guilds/{guild.id}/members/{user.id}: KICK_MEMBERS, below the actor, never the owner. */
export async function kickMember(ctx: ServiceContext, input: { guildId: string; userId: string }): Promise<void> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const { row, target } = await loadTarget(ctx.db, access, input.userId);
  enforce(kickDenial(access, target));
  await runChange(ctx, async (change) => {
    await removeMembers(change, access.guild.id, [row.user]);
    await change.audit({ guildId: access.guild.id, actionType: AuditLogEvent.MemberKick, targetId: row.userId });
  });
}

/**
 * DELETE /users/@me/guilds/{guild.id}: 10004 when not a member; the owner cannot leave (50055).
 * For bots and the dashboard user: an OAuth2 application never makes its user leave (401).
 */
export async function leaveGuild(ctx: ServiceContext, input: { guildId: string }): Promise<void> {
  if (ctx.actor.kind === "bearer") throw new ApiError("UNAUTHORIZED");
  const state = await loadGuildState(ctx.db, input.guildId, ctx.actor.userId);
  const row = await readMember(ctx.db, input.guildId, ctx.actor.userId);
  if (!row) throw new ApiError("UNKNOWN_GUILD");
  if (state.guild.ownerId === ctx.actor.userId) throw new ApiError("INVALID_GUILD");
  await runChange(ctx, (change) => removeMembers(change, input.guildId, [row.user]));
}

/**
 * The member completes membership screening (spec 3): pending becomes false and Guild
 * Member Update fires. Completing it again changes nothing.
 */
export async function completeScreening(ctx: ServiceContext, input: { guildId: string }): Promise<MemberObject> {
  await loadGuildState(ctx.db, input.guildId, ctx.actor.userId);
  const row = await readMember(ctx.db, input.guildId, ctx.actor.userId);
  if (!row) throw new ApiError("UNKNOWN_GUILD");
  if (!row.pending) return toMemberObject(row);
  return runChange(ctx, async ({ tx, emit }) => {
    const updated = await tx.member.update({
      where: { guildId_userId: { guildId: input.guildId, userId: row.userId } },
      data: { pending: false },
      include: MEMBER_INCLUDE,
    });
    await emit(GatewayDispatchEvents.GuildMemberUpdate, memberEventData(input.guildId, updated));
    return toMemberObject(updated);
  });
}

/**
 * Adds a user to a guild with roles, or gives an existing member the roles they lack
 * (Guild Member Add or Update). The operator's path (seed, CLI, tests): no permission
 * checks, but bans, screening and DID_REJOIN apply as on every join.
 */
export async function addGuildMember(ctx: ChangeContext, input: { guildId: string; userId: string; roleIds?: readonly string[] }): Promise<void> {
  const { guildId, userId } = input;
  await runChange(ctx, async (change) => {
    const guild = await change.tx.guild.findUniqueOrThrow({ where: { id: guildId }, select: { id: true, features: true, invitesDisabledUntil: true } });
    if (await joinGuild(change, { guild, userId, roleIds: input.roleIds, addedBy: ctx.actor?.userId })) return;
    const existing = await readMember(change.tx, guildId, userId);
    const held = new Set(existing?.roles.map((r) => r.roleId));
    const missing = [...new Set(input.roleIds)].filter((roleId) => !held.has(roleId));
    if (missing.length === 0) return;
    const member = await change.tx.member.update({
      where: { guildId_userId: { guildId, userId } },
      data: { roles: { create: missing.map((roleId) => ({ roleId })) } },
      include: MEMBER_INCLUDE,
    });
    await change.emit(GatewayDispatchEvents.GuildMemberUpdate, memberEventData(guildId, member));
  });
}
