import { AuditLogEvent, ChannelType, GatewayDispatchEvents } from "discord-api-types/v10";
import type { Channel } from "~/generated/prisma/client.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import { ApiError } from "~/server/errors.ts";
import type { Change } from "~/server/events/change.ts";
import { IS_A_THREAD, THREAD_AUDIT_KEYS, THREAD_INCLUDE, toThreadAuditRecord, toThreadMemberObject, toThreadObject, type ThreadObject } from "./thread.dto.ts";
import { DEFAULT_AUTO_ARCHIVE_DURATION, MAX_ACTIVE_THREADS } from "./thread.schema.ts";

/** What a new thread copies from its parent when the request does not say. */
export type ThreadParentRow = Pick<Channel, "id" | "type" | "defaultThreadRateLimitPerUser" | "defaultAutoArchiveDuration">;

export type OpenThreadInput = {
  id: string;
  guildId: string;
  parent: ThreadParentRow;
  type: number;
  name: string;
  /** Who started it: a user or bot, or the webhook that posted a forum post. */
  ownerId: string;
  /** Users and bots join the thread they start; webhooks are no thread members. */
  joinsAs: string | null;
  rateLimitPerUser?: number | null;
  autoArchiveDuration?: number | null;
  invitable?: boolean | null;
  appliedTags?: readonly string[];
  /** A forum post's first message takes the thread's id: it is the thread's last message from the start. */
  lastMessageId?: string | null;
};

/**
 * Opens a thread in the caller's change, for every way a thread starts (createThread, forum
 * posts by members, bots and webhooks): the guild's active thread limit (160006), the row with
 * the parent's defaults, the starter as first member, the THREAD_CREATE audit entry, Thread
 * Create (newly_created) and Thread Members Update.
 */
export async function openThread(change: Change, input: OpenThreadInput): Promise<ThreadObject> {
  const { tx, emit, audit } = change;
  const { id, guildId, parent, type } = input;
  // Counted inside the change, so two requests cannot both take the last place.
  const active = await tx.channel.count({ where: { guildId, type: IS_A_THREAD, threadArchived: false } });
  if (active >= MAX_ACTIVE_THREADS) throw new ApiError("MAX_ACTIVE_THREADS");
  const now = new Date();
  await tx.channel.create({
    data: {
      id,
      guildId,
      type,
      name: input.name,
      parentId: parent.id,
      ownerId: input.ownerId,
      rateLimitPerUser: input.rateLimitPerUser ?? parent.defaultThreadRateLimitPerUser ?? 0,
      threadArchived: false,
      threadLocked: false,
      threadAutoArchiveDuration: input.autoArchiveDuration ?? parent.defaultAutoArchiveDuration ?? DEFAULT_AUTO_ARCHIVE_DURATION,
      threadArchiveTimestamp: now,
      threadActiveAt: now,
      threadInvitable: type === ChannelType.PrivateThread ? (input.invitable ?? true) : null,
      appliedTags: input.appliedTags ? JSON.stringify(input.appliedTags) : null,
      lastMessageId: input.lastMessageId ?? null,
      createdAt: now,
    },
  });
  const member = input.joinsAs ? await tx.threadMember.create({ data: { threadId: id, userId: input.joinsAs, joinTimestamp: now } }) : null;
  const row = await tx.channel.findUniqueOrThrow({ where: { id }, include: THREAD_INCLUDE });
  const thread = toThreadObject(row, parent.type);
  await audit({ guildId, actionType: AuditLogEvent.ThreadCreate, targetId: id, changes: diffChanges({}, toThreadAuditRecord(thread), THREAD_AUDIT_KEYS) });
  await emit(GatewayDispatchEvents.ThreadCreate, { ...thread, newly_created: true });
  if (!member) return thread;
  await emit(GatewayDispatchEvents.ThreadMembersUpdate, {
    id,
    guild_id: guildId,
    member_count: thread.member_count,
    added_members: [toThreadMemberObject(member)],
  });
  return { ...thread, member: toThreadMemberObject(member) };
}
