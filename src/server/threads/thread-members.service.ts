import { ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { loadThreadAccess } from "./thread-access.ts";
import { THREAD_MEMBER_COUNT_MAX, toThreadMemberObject } from "./thread.dto.ts";

/** The thread's approximate member count as the platform gives it in Thread Members Update. */
export async function memberCount(tx: Change["tx"], threadId: string): Promise<number> {
  return Math.min(await tx.threadMember.count({ where: { threadId } }), THREAD_MEMBER_COUNT_MAX);
}

/**
 * PUT /channels/{channel.id}/thread-members/@me: joins a thread that is not archived. A
 * private thread can only be joined by those who manage threads (others are added by its
 * members). Joining again changes nothing. Fires Thread Members Update.
 */
export async function joinThread(ctx: ServiceContext, input: { channelId: string }): Promise<void> {
  const { access, thread, permissions, membership } = await loadThreadAccess(ctx, input.channelId);
  if (thread.threadArchived) throw new ApiError("THREAD_ARCHIVED");
  if (membership) return;
  // Seeing a private thread without being in it means managing threads, so this holds already.
  if (thread.type === ChannelType.PrivateThread && !hasPermission(permissions, P.ManageThreads)) throw new ApiError("MISSING_ACCESS");
  const guildId = access.guild.id;
  const userId = ctx.actor.userId;
  await runChange(ctx, async ({ tx, emit }) => {
    // A join racing this one may have added the row already: then this one changes nothing.
    const inserted =
      await tx.$executeRaw`INSERT INTO "ThreadMember" ("threadId", "userId", "joinTimestamp", "flags") VALUES (${thread.id}, ${userId}, ${new Date()}, 0) ON CONFLICT DO NOTHING`;
    if (inserted === 0) return;
    const member = await tx.threadMember.findUniqueOrThrow({ where: { threadId_userId: { threadId: thread.id, userId } } });
    await emit(GatewayDispatchEvents.ThreadMembersUpdate, {
      id: thread.id,
      guild_id: guildId,
      member_count: await memberCount(tx, thread.id),
      added_members: [toThreadMemberObject(member)],
    });
  });
}

/**
 * DELETE /channels/{channel.id}/thread-members/@me: leaves a thread that is not archived;
 * leaving one the caller is not in changes nothing. Fires Thread Members Update.
 */
export async function leaveThread(ctx: ServiceContext, input: { channelId: string }): Promise<void> {
  const { access, thread, membership } = await loadThreadAccess(ctx, input.channelId);
  if (thread.threadArchived) throw new ApiError("THREAD_ARCHIVED");
  if (!membership) return;
  const guildId = access.guild.id;
  await runChange(ctx, async ({ tx, emit }) => {
    const removed = await tx.threadMember.deleteMany({ where: { threadId: thread.id, userId: ctx.actor.userId } });
    // Another request may have removed the row meanwhile: then this one changed nothing.
    if (removed.count === 0) return;
    await emit(GatewayDispatchEvents.ThreadMembersUpdate, {
      id: thread.id,
      guild_id: guildId,
      member_count: await memberCount(tx, thread.id),
      removed_member_ids: [ctx.actor.userId],
    });
  });
}
