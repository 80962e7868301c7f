import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { ThreadMember } from "~/generated/prisma/client.ts";
import type { ChannelRow } from "~/server/channels/channel.dto.ts";
import { loadChannelAccess, type ChannelAccess } from "~/server/channels/channel-read.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { accessIn, channelPermissions, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { isThreadType, THREAD_INCLUDE, type ThreadRow } from "./thread.dto.ts";

export type ThreadAccess = {
  access: GuildAccess;
  parent: ChannelRow;
  thread: ThreadRow;
  /** The caller's permissions in the thread: the parent's overwrites, the thread's implicit rules. */
  permissions: bigint;
  /** The caller's thread member row, when they joined. */
  membership: ThreadMember | null;
};

/**
 * Whether a channel id names a thread, from cached state alone: the guild's cached channels
 * leave threads out, so a channel of a guild that is not among them is one (or is gone,
 * which the thread path answers with 10003 as the channel path would).
 */
export async function isThreadChannel(ctx: ServiceContext, channelId: string): Promise<boolean> {
  const cache = stateCache(ctx.db);
  const guildId = await cache.guildIdOfChannel(channelId);
  const state = guildId ? await cache.guild(guildId, ctx.actor.userId) : null;
  if (!state) return false;
  return !(await state.channels()).byId.has(channelId);
}

/** A channel for an action threads do not take: a thread the caller can see answers 50024. */
export async function loadChannelNotThread(ctx: ServiceContext, channelId: string): Promise<ChannelAccess> {
  if (await isThreadChannel(ctx, channelId)) {
    await loadThreadAccess(ctx, channelId);
    throw new ApiError("WRONG_CHANNEL_TYPE");
  }
  return loadChannelAccess(ctx, channelId);
}

/** The caller's permissions in a thread of `parent`, and whether they may see it at all. */
export function threadPermissions(access: GuildAccess, parent: ChannelRow, threadType: number): bigint {
  return channelPermissions(access, { type: threadType, overwrites: toOverwriteInputs(parent.overwrites) });
}

/** Private threads show only to their members and to those who manage threads. */
export function canSeeThread(permissions: bigint, threadType: number, isMember: boolean): boolean {
  if (!hasPermission(permissions, P.ViewChannel)) return false;
  return threadType !== ChannelType.PrivateThread || isMember || hasPermission(permissions, P.ManageThreads);
}

/** What the caller may change in a thread (modifyThread's rules, and the dashboard's buttons). */
export type ThreadRights = {
  /** MANAGE_THREADS: every change. */
  canManage: boolean;
  /** Started the thread, which is not locked: may rename, archive and retag it. */
  isStarter: boolean;
  /** May bring it back from the archive: unlocked, and the starter or allowed to send in threads. */
  canUnarchive: boolean;
};

export function threadRights(permissions: bigint, thread: Pick<ThreadRow, "ownerId" | "threadLocked">, userId: string): ThreadRights {
  const canManage = hasPermission(permissions, P.ManageThreads);
  const isLocked = thread.threadLocked ?? false;
  const isStarter = thread.ownerId === userId && !isLocked;
  return { canManage, isStarter, canUnarchive: canManage || (!isLocked && (isStarter || hasPermission(permissions, P.SendMessagesInThreads))) };
}

/**
 * A thread the caller can see. Unknown → 10003; another kind of channel → 50024 once the
 * caller may see it; not a member of the guild, no VIEW_CHANNEL on the parent, or a private
 * thread they neither joined nor manage → 50001.
 */
export async function loadThreadAccess(ctx: ServiceContext, channelId: string): Promise<ThreadAccess> {
  const userId = ctx.actor.userId;
  const row = await ctx.db.channel.findUnique({
    where: { id: channelId },
    include: { ...THREAD_INCLUDE, threadMembers: { where: { userId } } },
  });
  if (!row?.guildId) throw new ApiError("UNKNOWN_CHANNEL");
  if (!isThreadType(row.type)) {
    await loadChannelAccess(ctx, channelId);
    throw new ApiError("WRONG_CHANNEL_TYPE");
  }
  const state = await stateCache(ctx.db).guild(row.guildId, userId);
  const parent = row.parentId ? (await state?.channels())?.byId.get(row.parentId) : undefined;
  if (!state || !parent) throw new ApiError("UNKNOWN_CHANNEL");
  const access = await accessIn(state, ctx.actor);
  const permissions = threadPermissions(access, parent, row.type);
  const { threadMembers, ...thread } = row;
  const membership = threadMembers[0] ?? null;
  if (!canSeeThread(permissions, thread.type, membership !== null)) throw new ApiError("MISSING_ACCESS");
  return { access, parent, thread, permissions, membership };
}
