import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { compareSnowflakes } from "~/server/snowflake/snowflake.ts";
import { canSeeThread, threadPermissions, threadRights, type ThreadRights } from "./thread-access.ts";
import { IS_A_THREAD, isForumType, THREAD_INCLUDE, toThreadObject, type ThreadObject } from "./thread.dto.ts";

/** A thread as the Channels page shows it: what the signed-in user may do with it comes along. */
type DashboardThread = ThreadObject & { rights: ThreadRights };
/**
 * A channel threads can be started in, and what the signed-in user may start there: threads
 * of either kind in text and announcement channels, posts in forum and media channels.
 */
type ThreadParent =
  | { id: string; kind: "threads"; canCreatePublic: boolean; canCreatePrivate: boolean }
  | { id: string; kind: "posts"; canPost: boolean; canUseModeratedTags: boolean };
export type DashboardThreads = { threads: DashboardThread[]; parents: ThreadParent[] };

const PARENT_TYPES: readonly number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildForum, ChannelType.GuildMedia];

/**
 * Every thread of the guild the signed-in user can see, archived ones after the others, with
 * their rights in each, and the channels where they may start threads or posts. The Channels
 * page groups them under their parents.
 */
export async function listThreadsForDashboard(ctx: ServiceContext, input: { guildId: string }): Promise<DashboardThreads> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const { byId, rows: channels } = await access.state.channels();
  const userId = ctx.actor.userId;
  const rows = await ctx.db.channel.findMany({
    where: { guildId: input.guildId, type: IS_A_THREAD },
    include: { ...THREAD_INCLUDE, threadMembers: { where: { userId } } },
  });
  const threads: DashboardThread[] = [];
  // Active threads first, then archived ones, each newest first.
  const ordered = rows.sort((a, b) => Number(a.threadArchived ?? false) - Number(b.threadArchived ?? false) || compareSnowflakes(b.id, a.id));
  for (const { threadMembers, ...row } of ordered) {
    const parent = row.parentId ? byId.get(row.parentId) : undefined;
    if (!parent) continue;
    const permissions = threadPermissions(access, parent, row.type);
    if (!canSeeThread(permissions, row.type, threadMembers.length > 0)) continue;
    threads.push({ ...toThreadObject(row, parent.type, threadMembers[0]), rights: threadRights(permissions, row, userId) });
  }
  const parents = channels.flatMap((channel): ThreadParent[] => {
    if (!PARENT_TYPES.includes(channel.type)) return [];
    if (isForumType(channel.type)) {
      // Posting is the platform's forum rule: SEND_MESSAGES in the channel itself.
      const own = channelPermissions(access, { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) });
      if (!hasPermission(own, P.ViewChannel)) return [];
      return [{ id: channel.id, kind: "posts", canPost: hasPermission(own, P.SendMessages), canUseModeratedTags: hasPermission(own, P.ManageThreads) }];
    }
    const permissions = threadPermissions(access, channel, ChannelType.PublicThread);
    if (!hasPermission(permissions, P.ViewChannel)) return [];
    const isAnnouncement = channel.type === ChannelType.GuildAnnouncement;
    return [
      {
        id: channel.id,
        kind: "threads",
        canCreatePublic: hasPermission(permissions, P.CreatePublicThreads),
        canCreatePrivate: !isAnnouncement && hasPermission(permissions, P.CreatePrivateThreads),
      },
    ];
  });
  return { threads, parents };
}
