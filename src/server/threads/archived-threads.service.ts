import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { Prisma } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { compareSnowflakes } from "~/server/snowflake/snowflake.ts";
import { canSeeThread, loadChannelNotThread, threadPermissions } from "./thread-access.ts";
import { THREAD_INCLUDE, toThreadMemberObject, toThreadObject, type ThreadMemberObject, type ThreadObject, type ThreadRow } from "./thread.dto.ts";
import { ARCHIVED_THREADS_DEFAULT, type TArchivedThreadsQuery, type TJoinedArchivedThreadsQuery } from "./thread.schema.ts";

export type ArchivedThreads = { threads: ThreadObject[]; members: ThreadMemberObject[]; has_more: boolean };

/** Which archived threads of a channel a listing names. */
type ArchivedScope = "public" | "private" | "joined";

const PUBLIC_TYPES = [ChannelType.PublicThread, ChannelType.AnnouncementThread];

/**
 * The channel's archived threads the caller may list: READ_MESSAGE_HISTORY there, and
 * MANAGE_THREADS for every private one; each thread answered is one the caller can see.
 */
async function listArchived(
  ctx: ServiceContext,
  input: { channelId: string; scope: ArchivedScope; limit: number | undefined },
  read: (where: Prisma.ChannelWhereInput, take: number) => Promise<ThreadRow[]>,
): Promise<ArchivedThreads> {
  const { access, channel: parent, permissions } = await loadChannelNotThread(ctx, input.channelId);
  if (!hasPermission(permissions, P.ReadMessageHistory)) throw new ApiError("MISSING_PERMISSIONS");
  if (input.scope === "private" && !hasPermission(permissions, P.ManageThreads)) throw new ApiError("MISSING_PERMISSIONS");
  const userId = ctx.actor.userId;
  const limit = input.limit ?? ARCHIVED_THREADS_DEFAULT;
  const where: Prisma.ChannelWhereInput = {
    parentId: parent.id,
    threadArchived: true,
    type: input.scope === "public" ? { in: PUBLIC_TYPES } : ChannelType.PrivateThread,
    ...(input.scope === "joined" && { threadMembers: { some: { userId } } }),
  };
  // One more than asked says whether there are more.
  const rows = await read(where, limit + 1);
  const page = rows.slice(0, limit);
  const memberships = await ctx.db.threadMember.findMany({ where: { userId, threadId: { in: page.map((row) => row.id) } } });
  const joined = new Map(memberships.map((m) => [m.threadId, m]));
  const visible = page.filter((row) => canSeeThread(threadPermissions(access, parent, row.type), row.type, joined.has(row.id)));
  return {
    threads: visible.map((row) => toThreadObject(row, parent.type, joined.get(row.id))),
    members: visible.flatMap((row) => {
      const membership = joined.get(row.id);
      return membership ? [toThreadMemberObject(membership)] : [];
    }),
    has_more: rows.length > limit,
  };
}

/**
 * GET /channels/{channel.id}/threads/archived/public and /private: archived threads of the
 * channel (public and announcement threads, or private ones with MANAGE_THREADS), latest
 * archived first, archived before `before` when given; limit 2-100 (50).
 */
export function listArchivedThreads(ctx: ServiceContext, input: { channelId: string; scope: "public" | "private"; query: TArchivedThreadsQuery }) {
  const before = input.query.before ? new Date(input.query.before) : null;
  return listArchived(ctx, { channelId: input.channelId, scope: input.scope, limit: input.query.limit }, (where, take) =>
    ctx.db.channel.findMany({
      where: { ...where, ...(before && { threadArchiveTimestamp: { lt: before } }) },
      orderBy: [{ threadArchiveTimestamp: "desc" }, { id: "desc" }],
      take,
      include: THREAD_INCLUDE,
    }),
  );
}

/**
 * GET /channels/{channel.id}/users/@me/threads/archived/private: the archived private threads
 * of the channel the caller joined, newest thread first, before the thread id `before`.
 */
export function listJoinedArchivedThreads(ctx: ServiceContext, input: { channelId: string; query: TJoinedArchivedThreadsQuery }) {
  const { before } = input.query;
  return listArchived(ctx, { channelId: input.channelId, scope: "joined", limit: input.query.limit }, async (where, take) => {
    // Ids order as numbers, not as text: the caller's joined threads of one channel are few, so they are ordered here.
    const rows = await ctx.db.channel.findMany({ where, include: THREAD_INCLUDE });
    return rows
      .filter((row) => !before || compareSnowflakes(row.id, before) < 0)
      .sort((a, b) => compareSnowflakes(b.id, a.id))
      .slice(0, take);
  });
}
