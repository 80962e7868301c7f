import { AuditLogEvent, ChannelFlags, ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { Channel } from "~/generated/prisma/client.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import type { ChannelRow } from "~/server/channels/channel.dto.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { removeStoredFiles } from "~/server/images/file-removal.ts";
import { attachmentPathsOf } from "~/server/messages/attachments.ts";
import type { UploadedFile } from "~/server/messages/message-validation.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { compareSnowflakes, newId } from "~/server/snowflake/snowflake.ts";
import { startForumPost, type ForumPostObject } from "./forum-post.service.ts";
import { checkKnownTags, checkModeratedTags } from "./forum-tags.ts";
import { canSeeThread, loadChannelNotThread, loadThreadAccess, threadPermissions, threadRights, type ThreadAccess } from "./thread-access.ts";
import { isPastAutoArchive } from "./thread-auto-archive.ts";
import { openThread } from "./thread-open.ts";
import {
  IS_A_THREAD,
  isForumType,
  parseAppliedTags,
  THREAD_AUDIT_KEYS,
  THREAD_INCLUDE,
  toThreadAuditRecord,
  toThreadMemberObject,
  toThreadObject,
  type ThreadMemberObject,
  type ThreadObject,
} from "./thread.dto.ts";
import type { TThreadCreateBody, TThreadModifyBody } from "./thread.schema.ts";

/** The only thread flag a caller sets: pinning a post in a forum or media channel. */
const EDITABLE_THREAD_FLAGS = ChannelFlags.Pinned;

/** The thread type a parent gets: text channels public or private (private by default, as in v10), announcement channels their own kind. */
function threadTypeFor(parent: ChannelRow, requested: number | null | undefined): number {
  switch (parent.type) {
    case ChannelType.GuildText:
      if (requested === ChannelType.AnnouncementThread) {
        throw invalidField(["type"], "BASE_TYPE_CHOICES", `Value must be one of {${ChannelType.PublicThread}, ${ChannelType.PrivateThread}}.`);
      }
      return requested ?? ChannelType.PrivateThread;
    case ChannelType.GuildAnnouncement:
      // Announcement channels have no private threads; the platform ignores the type there.
      return ChannelType.AnnouncementThread;
    default:
      throw new ApiError("WRONG_CHANNEL_TYPE");
  }
}

/**
 * POST /channels/{channel.id}/threads. In a text or announcement channel, a thread without a
 * starter message: needs VIEW_CHANNEL and CREATE_PUBLIC_THREADS (CREATE_PRIVATE_THREADS for a
 * private one) there; the creator joins it. In a forum or media channel, a post with its first
 * message (startForumPost). Fires Thread Create and Thread Members Update.
 */
export async function createThread(
  ctx: ServiceContext,
  input: { channelId: string; body: TThreadCreateBody; files?: readonly UploadedFile[] },
): Promise<ThreadObject | ForumPostObject> {
  const channelAccess = await loadChannelNotThread(ctx, input.channelId);
  const { access, channel: parent, permissions } = channelAccess;
  const { body } = input;
  if (isForumType(parent.type)) return startForumPost(ctx, { parent: channelAccess, body, files: input.files ?? [] });
  const type = threadTypeFor(parent, body.type);
  const needed = type === ChannelType.PrivateThread ? P.CreatePrivateThreads : P.CreatePublicThreads;
  if (!hasPermission(permissions, needed)) throw new ApiError("MISSING_PERMISSIONS");
  const userId = ctx.actor.userId;
  return runChange(ctx, (change) =>
    openThread(change, {
      id: newId(),
      guildId: access.guild.id,
      parent,
      type,
      name: body.name,
      ownerId: userId,
      joinsAs: userId,
      rateLimitPerUser: body.rate_limit_per_user,
      autoArchiveDuration: body.auto_archive_duration,
      invitable: body.invitable,
    }),
  );
}

/** GET /channels/{channel.id} for a thread: with the caller's thread member object when they joined. */
export async function getThread(ctx: ServiceContext, input: { channelId: string }): Promise<ThreadObject> {
  const { thread, parent, membership } = await loadThreadAccess(ctx, input.channelId);
  return toThreadObject(thread, parent.type, membership);
}

/**
 * PATCH /channels/{channel.id} for a thread. Its starter may rename, archive and retag an
 * unlocked thread; anyone who may send messages in threads may unarchive an unlocked one;
 * everything else (lock, invitable, slowmode, pinning, others' threads, unarchiving a locked
 * thread) needs MANAGE_THREADS. An archived thread accepts changes only with archived false.
 * Fires Thread Update.
 */
export async function modifyThread(ctx: ServiceContext, input: { channelId: string; body: TThreadModifyBody }): Promise<ThreadObject> {
  const threadAccess = await loadThreadAccess(ctx, input.channelId);
  const { access, parent, thread, permissions } = threadAccess;
  const { body } = input;
  const data = threadChanges(threadAccess, body);
  const before = toThreadObject(thread, parent.type);
  if (Object.keys(data).length === 0) return before;
  if (thread.threadArchived && body.archived !== false) throw new ApiError("THREAD_ARCHIVED");

  const { canManage, isStarter, canUnarchive } = threadRights(permissions, thread, ctx.actor.userId);
  const changes = (columns: readonly (keyof ThreadColumns)[]) => columns.some((column) => column in data);
  if (changes(["threadLocked", "threadInvitable", "rateLimitPerUser", "flags"]) && !canManage) throw new ApiError("MISSING_PERMISSIONS");
  const isStarterChange = changes(["name", "threadAutoArchiveDuration", "appliedTags"]) || data.threadArchived === true;
  if (isStarterChange && !canManage && !isStarter) throw new ApiError("MISSING_PERMISSIONS");
  if (data.threadArchived === false && !canUnarchive) throw new ApiError("MISSING_PERMISSIONS");
  if (data.appliedTags !== undefined) checkModeratedTags(parent, parseAppliedTags(thread.appliedTags), parseAppliedTags(data.appliedTags), canManage);

  return runChange(ctx, async ({ tx, emit, audit }) => {
    const row = await tx.channel.update({ where: { id: thread.id }, data, include: THREAD_INCLUDE });
    const after = toThreadObject(row, parent.type);
    await audit({
      guildId: access.guild.id,
      actionType: AuditLogEvent.ThreadUpdate,
      targetId: thread.id,
      changes: diffChanges(toThreadAuditRecord(before), toThreadAuditRecord(after), THREAD_AUDIT_KEYS),
    });
    await emit(GatewayDispatchEvents.ThreadUpdate, after);
    return after;
  });
}

type ThreadColumns = Partial<
  Pick<
    Channel,
    | "name"
    | "threadArchived"
    | "threadArchiveTimestamp"
    | "threadActiveAt"
    | "threadAutoArchiveDuration"
    | "threadLocked"
    | "threadInvitable"
    | "rateLimitPerUser"
    | "flags"
  >
> & { appliedTags?: string };

/** The columns a modify changes: fields the thread's kind has and whose value differs. */
function threadChanges({ thread, parent }: ThreadAccess, body: TThreadModifyBody): ThreadColumns {
  const data: ThreadColumns = {};
  if (body.name !== undefined && body.name !== thread.name) data.name = body.name;
  if (body.archived !== undefined && body.archived !== (thread.threadArchived ?? false)) {
    data.threadArchived = body.archived;
    data.threadArchiveTimestamp = new Date();
    // Unarchiving starts the inactivity clock again.
    if (!body.archived) data.threadActiveAt = data.threadArchiveTimestamp;
  }
  if (body.auto_archive_duration !== undefined && body.auto_archive_duration !== thread.threadAutoArchiveDuration) {
    data.threadAutoArchiveDuration = body.auto_archive_duration;
  }
  if (body.locked !== undefined && body.locked !== (thread.threadLocked ?? false)) data.threadLocked = body.locked;
  // Fields of other kinds of thread are ignored, as the platform ignores them.
  if (thread.type === ChannelType.PrivateThread && body.invitable !== undefined && body.invitable !== thread.threadInvitable) {
    data.threadInvitable = body.invitable;
  }
  const rateLimit = body.rate_limit_per_user === null ? 0 : body.rate_limit_per_user;
  if (rateLimit !== undefined && rateLimit !== (thread.rateLimitPerUser ?? 0)) data.rateLimitPerUser = rateLimit;
  const isTagged = isForumType(parent.type);
  if (isTagged && body.flags !== undefined) {
    const flags = (thread.flags & ~EDITABLE_THREAD_FLAGS) | (body.flags & EDITABLE_THREAD_FLAGS);
    if (flags !== thread.flags) data.flags = flags;
  }
  if (isTagged && body.applied_tags !== undefined) {
    const tags = checkKnownTags(parent, body.applied_tags);
    if (JSON.stringify(tags) !== JSON.stringify(parseAppliedTags(thread.appliedTags))) data.appliedTags = JSON.stringify(tags);
  }
  return data;
}

/** DELETE /channels/{channel.id} for a thread: needs MANAGE_THREADS; returns the deleted thread. Fires Thread Delete. */
export async function deleteThread(ctx: ServiceContext, input: { channelId: string }): Promise<ThreadObject> {
  const { access, parent, thread, permissions } = await loadThreadAccess(ctx, input.channelId);
  if (!hasPermission(permissions, P.ManageThreads)) throw new ApiError("MISSING_PERMISSIONS");
  const deleted = toThreadObject(thread, parent.type);
  const guildId = access.guild.id;
  return runChange(ctx, async (change) => {
    const { tx, emit, audit } = change;
    await removeStoredFiles(change, await attachmentPathsOf(tx, { channelId: thread.id }));
    await tx.channel.delete({ where: { id: thread.id } });
    await audit({
      guildId,
      actionType: AuditLogEvent.ThreadDelete,
      targetId: thread.id,
      changes: diffChanges(toThreadAuditRecord(deleted), {}, THREAD_AUDIT_KEYS),
    });
    await emit(GatewayDispatchEvents.ThreadDelete, { id: thread.id, guild_id: guildId, parent_id: parent.id, type: thread.type });
    return deleted;
  });
}

export type ActiveThreads = { threads: ThreadObject[]; members: ThreadMemberObject[]; has_more: false };

/**
 * GET /guilds/{guild.id}/threads/active (spec 4.2): unarchived threads the caller can see,
 * newest first, and the caller's thread member objects for those they joined.
 */
export async function listActiveGuildThreads(ctx: ServiceContext, input: { guildId: string }): Promise<ActiveThreads> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const { state } = access;
  // Thread and thread member rows change only with an event for the guild, which drops this answer.
  const rows = await state.answer("active-threads", async () => {
    const found = await ctx.db.channel.findMany({ where: { guildId: input.guildId, type: IS_A_THREAD, threadArchived: false }, include: THREAD_INCLUDE });
    return found.sort((a, b) => compareSnowflakes(b.id, a.id));
  });
  const memberships = await ctx.db.threadMember.findMany({ where: { userId: ctx.actor.userId, threadId: { in: rows.map((row) => row.id) } } });
  const joined = new Map(memberships.map((m) => [m.threadId, m]));
  const { byId } = await state.channels();
  const threads: ThreadObject[] = [];
  const members: ThreadMemberObject[] = [];
  const now = new Date();
  for (const row of rows) {
    // A thread quiet past its duration is archived already, whether or not the sweep has run.
    if (isPastAutoArchive(row, now)) continue;
    const parent = row.parentId ? byId.get(row.parentId) : undefined;
    if (!parent) continue;
    const membership = joined.get(row.id);
    if (!canSeeThread(threadPermissions(access, parent, row.type), row.type, membership !== undefined)) continue;
    threads.push(toThreadObject(row, parent.type));
    if (membership) members.push(toThreadMemberObject(membership));
  }
  return { threads, members, has_more: false };
}
