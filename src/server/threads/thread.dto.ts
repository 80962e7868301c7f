import { ChannelType, type APIThreadChannel, type APIThreadMember, type APIThreadMetadata, type ThreadChannelType } from "discord-api-types/v10";
import type { Prisma, ThreadMember } from "~/generated/prisma/client.ts";
import { THREAD_TYPES } from "~/server/channels/channel.dto.ts";

/** The platform stops counting thread members at 50. */
export const THREAD_MEMBER_COUNT_MAX = 50;

export const THREAD_INCLUDE = { _count: { select: { threadMembers: true } } } satisfies Prisma.ChannelInclude;
export type ThreadRow = Prisma.ChannelGetPayload<{ include: typeof THREAD_INCLUDE }>;

/** A `where` on channel type: threads only. */
export const IS_A_THREAD = { in: THREAD_TYPES };

export function isThreadType(type: number): boolean {
  return THREAD_TYPES.includes(type);
}

export type ThreadMemberObject = Required<Pick<APIThreadMember, "id" | "user_id">> & Omit<APIThreadMember, "member">;

/** Thread metadata; `archive_timestamp` is nullable as in the platform's own description, where APIThreadMetadata has it always set. */
type ThreadMetadataObject = Omit<APIThreadMetadata, "archive_timestamp"> & { archive_timestamp: string | null; create_timestamp: string };

/** Thread fields APIThreadChannel has optional that the thread object always carries. */
type AlwaysSent =
  "guild_id" | "parent_id" | "owner_id" | "last_message_id" | "rate_limit_per_user" | "flags" | "message_count" | "member_count" | "total_message_sent";

/** The thread channel object: APIThreadChannel, its metadata as above (docs/wire-differences.md). */
export type ThreadObject = Omit<APIThreadChannel, "thread_metadata" | "member"> &
  Required<Pick<APIThreadChannel, AlwaysSent>> & {
    thread_metadata: ThreadMetadataObject;
    /** The caller's thread member object, where the platform includes it (get, create). */
    member?: ThreadMemberObject;
  };

/** Forum and media channels: they hold only posts (threads that open with a message), and posts carry tags. */
const FORUM_TYPES: readonly number[] = [ChannelType.GuildForum, ChannelType.GuildMedia];

export function isForumType(type: number | null): boolean {
  return type !== null && FORUM_TYPES.includes(type);
}

export function parseAppliedTags(json: string | null): string[] {
  return json ? (JSON.parse(json) as string[]) : [];
}

export function toThreadMemberObject(row: Pick<ThreadMember, "threadId" | "userId" | "joinTimestamp" | "flags">): ThreadMemberObject {
  return { id: row.threadId, user_id: row.userId, join_timestamp: row.joinTimestamp.toISOString(), flags: row.flags };
}

/**
 * Thread row → the platform's thread channel object. Threads have no position or overwrites
 * of their own: they live in the parent's and take its permissions. `parentType` decides
 * whether `applied_tags` appears (forum and media posts).
 */
export function toThreadObject(row: ThreadRow, parentType: number | null, member?: ThreadMember | null): ThreadObject {
  const metadata: ThreadMetadataObject = {
    archived: row.threadArchived ?? false,
    auto_archive_duration: row.threadAutoArchiveDuration ?? 1440,
    archive_timestamp: row.threadArchiveTimestamp?.toISOString() ?? null,
    locked: row.threadLocked ?? false,
    create_timestamp: row.createdAt.toISOString(),
  };
  if (row.type === ChannelType.PrivateThread) metadata.invitable = row.threadInvitable ?? true;
  return {
    id: row.id,
    type: row.type as ThreadChannelType,
    guild_id: row.guildId!,
    // A thread always has its parent: deleting the parent deletes its threads.
    parent_id: row.parentId!,
    owner_id: row.ownerId!,
    name: row.name,
    last_message_id: row.lastMessageId,
    rate_limit_per_user: row.rateLimitPerUser ?? 0,
    flags: row.flags,
    message_count: row.messageCount,
    member_count: Math.min(row._count.threadMembers, THREAD_MEMBER_COUNT_MAX),
    total_message_sent: row.totalMessageSent,
    thread_metadata: metadata,
    ...(isForumType(parentType) && { applied_tags: parseAppliedTags(row.appliedTags) }),
    ...(member && { member: toThreadMemberObject(member) }),
  } satisfies ThreadObject;
}

/** Keys of a thread's audit entries: the channel fields and the metadata's, flattened as the platform records them. */
export const THREAD_AUDIT_KEYS = [
  "name",
  "type",
  "archived",
  "locked",
  "auto_archive_duration",
  "invitable",
  "rate_limit_per_user",
  "flags",
  "applied_tags",
] as const;

/** A thread object as its audit entries record it. */
export function toThreadAuditRecord(thread: ThreadObject): Record<string, unknown> {
  const { thread_metadata: m } = thread;
  return {
    name: thread.name,
    type: thread.type,
    archived: m.archived,
    locked: m.locked,
    auto_archive_duration: m.auto_archive_duration,
    invitable: m.invitable,
    rate_limit_per_user: thread.rate_limit_per_user,
    flags: thread.flags,
    applied_tags: thread.applied_tags,
  };
}
