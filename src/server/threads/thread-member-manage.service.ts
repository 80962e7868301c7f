// Others' thread memberships: adding someone to a thread (a ticket bot's first call), removing
// them, and reading who is in one.
import { ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import { Prisma, type ThreadMember } from "~/generated/prisma/client.ts";
import { hasPrivilegedIntent } from "~/server/applications/intents.ts";
import type { ServiceContext } from "~/server/context.ts";
import { snowflakeBeyond, orderBySnowflake } from "~/server/db/snowflake-sql.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { readMemberCard } from "~/server/members/member-queries.ts";
import { toMemberObject, type MemberObject } from "~/server/members/member.dto.ts";
import { accessIn } from "~/server/permissions/guild-access.ts";
import { enforce, type Denial } from "~/server/permissions/denial.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { loadThreadAccess, threadPermissions, type ThreadAccess } from "./thread-access.ts";
import { memberCount } from "./thread-members.service.ts";
import { toThreadMemberObject, type ThreadMemberObject } from "./thread.dto.ts";

/**
 * Who may add others to a thread, the platform's rule: whoever may send messages in it, the
 * thread not archived; in a private thread only its members, and only those who manage threads
 * when it is not invitable.
 */
function addThreadMemberDenial(rights: {
  permissions: bigint;
  isMember: boolean;
  archived: boolean;
  privateThread: boolean;
  invitable: boolean;
}): Denial | null {
  if (rights.archived) return { error: "THREAD_ARCHIVED", reason: "The thread is archived." };
  if (!hasPermission(rights.permissions, P.SendMessagesInThreads)) return { error: "MISSING_PERMISSIONS", reason: "Needs Send Messages in Threads." };
  const manages = hasPermission(rights.permissions, P.ManageThreads);
  if (rights.privateThread && !manages && (!rights.isMember || !rights.invitable))
    return {
      error: "MISSING_PERMISSIONS",
      reason: rights.isMember ? "Only moderators may add members to this private thread." : "Join the private thread first.",
    };
  return null;
}

/** Removing another member: MANAGE_THREADS, or the starter of a private thread; never from an archived thread. */
function removeThreadMemberDenial(rights: { permissions: bigint; isStarter: boolean; archived: boolean; privateThread: boolean }): Denial | null {
  if (rights.archived) return { error: "THREAD_ARCHIVED", reason: "The thread is archived." };
  if (hasPermission(rights.permissions, P.ManageThreads) || (rights.privateThread && rights.isStarter)) return null;
  return { error: "MISSING_PERMISSIONS", reason: "Needs Manage Threads." };
}

/** The user to add or remove must be a member of the guild (10013 for no such user, 10007 for a non-member). */
async function guildMemberOf(ctx: ServiceContext, target: ThreadAccess, userId: string) {
  const member = await target.access.state.member(userId);
  if (member) return member;
  const user = await ctx.db.user.findUnique({ where: { id: userId }, select: { id: true } });
  throw new ApiError(user ? "UNKNOWN_MEMBER" : "UNKNOWN_USER");
}

/**
 * PUT /channels/{thread.id}/thread-members/{user.id}: adds a member of the guild who can see the
 * thread's parent (50001 otherwise); adding one already in changes nothing. Thread Members Update.
 */
export async function addThreadMember(ctx: ServiceContext, input: { channelId: string; userId: string }): Promise<void> {
  const target = await loadThreadAccess(ctx, input.channelId);
  const { thread, permissions, membership, access, parent } = target;
  enforce(
    addThreadMemberDenial({
      permissions,
      isMember: membership !== null,
      archived: thread.threadArchived === true,
      privateThread: thread.type === ChannelType.PrivateThread,
      invitable: thread.threadInvitable !== false,
    }),
  );
  await guildMemberOf(ctx, target, input.userId);
  const theirs = threadPermissions(await accessIn(access.state, { userId: input.userId }), parent, thread.type);
  if (!hasPermission(theirs, P.ViewChannel)) throw new ApiError("MISSING_ACCESS");
  await runChange(ctx, async ({ tx, emit }) => {
    const inserted =
      await tx.$executeRaw`INSERT INTO "ThreadMember" ("threadId", "userId", "joinTimestamp", "flags") VALUES (${thread.id}, ${input.userId}, ${new Date()}, 0) ON CONFLICT DO NOTHING`;
    if (inserted === 0) return;
    const row = await tx.threadMember.findUniqueOrThrow({ where: { threadId_userId: { threadId: thread.id, userId: input.userId } } });
    await emit(GatewayDispatchEvents.ThreadMembersUpdate, {
      id: thread.id,
      guild_id: access.guild.id,
      member_count: await memberCount(tx, thread.id),
      added_members: [toThreadMemberObject(row)],
    });
  });
}

/** DELETE /channels/{thread.id}/thread-members/{user.id}: removing one not in the thread changes nothing. Thread Members Update. */
export async function removeThreadMember(ctx: ServiceContext, input: { channelId: string; userId: string }): Promise<void> {
  const target = await loadThreadAccess(ctx, input.channelId);
  const { thread, permissions, access } = target;
  enforce(
    removeThreadMemberDenial({
      permissions,
      isStarter: thread.ownerId === ctx.actor.userId,
      archived: thread.threadArchived === true,
      privateThread: thread.type === ChannelType.PrivateThread,
    }),
  );
  await runChange(ctx, async ({ tx, emit }) => {
    const removed = await tx.threadMember.deleteMany({ where: { threadId: thread.id, userId: input.userId } });
    if (removed.count === 0) return;
    await emit(GatewayDispatchEvents.ThreadMembersUpdate, {
      id: thread.id,
      guild_id: access.guild.id,
      member_count: await memberCount(tx, thread.id),
      removed_member_ids: [input.userId],
    });
  });
}

type ThreadMemberWithMember = ThreadMemberObject & { member?: MemberObject };

async function withMembers(ctx: ServiceContext, guildId: string, rows: readonly ThreadMember[], withMember: boolean): Promise<ThreadMemberWithMember[]> {
  return Promise.all(
    rows.map(async (row) => {
      const card = withMember ? await readMemberCard(ctx.db, guildId, row.userId) : null;
      return { ...toThreadMemberObject(row), ...(card && { member: toMemberObject(card) }) };
    }),
  );
}

/** GET /channels/{thread.id}/thread-members/{user.id}: 10007 Unknown Member for a user not in the thread. */
export async function getThreadMember(ctx: ServiceContext, input: { channelId: string; userId: string; withMember: boolean }): Promise<ThreadMemberWithMember> {
  const { thread, access } = await loadThreadAccess(ctx, input.channelId);
  const row = await ctx.db.threadMember.findUnique({ where: { threadId_userId: { threadId: thread.id, userId: input.userId } } });
  if (!row) throw new ApiError("UNKNOWN_MEMBER");
  return (await withMembers(ctx, access.guild.id, [row], input.withMember))[0]!;
}

/**
 * GET /channels/{thread.id}/thread-members: by user id, `after` and `limit` (1-100, 100) paging
 * them. A bot needs the GUILD_MEMBERS privileged intent enabled for its application (50001), as
 * on the platform.
 */
export async function listThreadMembers(
  ctx: ServiceContext,
  input: { channelId: string; withMember: boolean; after?: string; limit?: number },
): Promise<ThreadMemberWithMember[]> {
  const { thread, access } = await loadThreadAccess(ctx, input.channelId);
  const { actor } = ctx;
  if (actor.kind === "bot" && !(actor.applicationId && (await hasPrivilegedIntent(ctx.db, actor.applicationId, "GUILD_MEMBERS"))))
    throw new ApiError("MISSING_ACCESS");
  const column = Prisma.sql`"userId"`;
  const after = input.after ? Prisma.sql`AND ${snowflakeBeyond(column, ">", input.after)}` : Prisma.empty;
  const ids = await ctx.db.$queryRaw<{ userId: string }[]>`
    SELECT "userId" FROM "ThreadMember" WHERE "threadId" = ${thread.id} ${after} ${orderBySnowflake(column, "ASC")} LIMIT ${input.limit ?? 100}`;
  const rows = await ctx.db.threadMember.findMany({ where: { threadId: thread.id, userId: { in: ids.map((r) => r.userId) } } });
  const byUser = new Map(rows.map((row) => [row.userId, row]));
  return withMembers(
    ctx,
    access.guild.id,
    ids.flatMap(({ userId }) => byUser.get(userId) ?? []),
    input.withMember,
  );
}
