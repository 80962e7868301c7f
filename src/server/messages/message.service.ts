import { AuditLogEvent, ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import { Prisma } from "~/generated/prisma/client.ts";
import { hasPrivilegedIntent } from "~/server/applications/intents.ts";
import { loadChannelAccess } from "~/server/channels/channel-read.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { orderBySnowflake, snowflakeBeyond } from "~/server/db/snowflake-sql.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { guildMessageWithoutContent } from "~/server/gateway/message-content.ts";
import { readUserCards } from "~/server/users/user-queries.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { isThreadChannel, loadThreadAccess } from "~/server/threads/thread-access.ts";
import { THREAD_INCLUDE, toThreadObject, type ThreadRow } from "~/server/threads/thread.dto.ts";
import { createMessage } from "./message-create.service.ts";
import { deleteMessage, editMessage } from "./message-edit.service.ts";
import { MESSAGE_INCLUDE, toMessageObjects, toSnapshot, type MessageObject, type MessageReferenceObject, type MessageRow } from "./message.dto.ts";
import { MESSAGE_REFERENCE_FORWARD, type TCreateMessageBody, type TEditMessageBody, type TListMessagesQuery } from "./message.schema.ts";
import { checkNewMessage, newAttachments, type UploadedFile } from "./message-validation.ts";
import { canReadMessages } from "./message-access.ts";
import { attachDenial, deleteDenial, editDenial, NO_STANDING, replyHistoryDenial, sendDenial } from "./message-rules.ts";
import { DM_PERMISSIONS } from "~/server/dms/dm-rules.ts";
import { dmDenialFor, loadDmTarget } from "~/server/dms/dm.service.ts";
import { enforce, type Standing } from "~/server/permissions/denial.ts";
import { reactionsOf } from "~/server/reactions/reaction-counts.ts";

/** Channels whose messages are read and written here: text, announcement, voice and stage chat, threads. */
const MESSAGE_CHANNEL_TYPES: number[] = [
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
  ChannelType.GuildVoice,
  ChannelType.GuildStageVoice,
  ChannelType.AnnouncementThread,
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
];

type MessageChannel = {
  /** The guild's, for a guild channel; null in a DM. */
  guildId: string | null;
  /** In a DM: the other recipient, whom every message sent must be allowed to reach (dm-rules.ts). */
  dmWith: string | null;
  channel: { id: string; type: number };
  permissions: bigint;
  /** The caller may read its messages (canReadMessages). */
  readable: boolean;
  standing: Standing;
  /** For threads: the thread row and its parent's type (the thread object needs it). */
  thread: { row: ThreadRow; parentType: number } | null;
};

/**
 * A channel the caller can view and that holds messages: 10003 unknown, 50001 unseen, 50024
 * another kind. A DM is viewed by its two recipients, who hold DM_PERMISSIONS in it.
 */
export async function loadMessageChannel(ctx: ServiceContext, channelId: string): Promise<MessageChannel> {
  const dm = await loadDmTarget(ctx, channelId);
  if (dm)
    return { guildId: null, dmWith: dm.otherUserId, channel: dm.channel, permissions: DM_PERMISSIONS, readable: true, standing: NO_STANDING, thread: null };
  if (await isThreadChannel(ctx, channelId)) {
    const { access, thread, parent, permissions, membership } = await loadThreadAccess(ctx, channelId);
    const readable = canReadMessages(permissions, { type: thread.type, joined: membership !== null });
    return {
      guildId: access.guild.id,
      dmWith: null,
      channel: thread,
      permissions,
      readable,
      standing: access,
      thread: { row: thread, parentType: parent.type },
    };
  }
  const { access, channel, permissions } = await loadChannelAccess(ctx, channelId);
  if (!MESSAGE_CHANNEL_TYPES.includes(channel.type)) throw new ApiError("WRONG_CHANNEL_TYPE");
  return { guildId: access.guild.id, dmWith: null, channel, permissions, readable: canReadMessages(permissions, channel), standing: access, thread: null };
}

export function requirePermission(permissions: bigint, flag: bigint): void {
  if (!hasPermission(permissions, flag)) throw new ApiError("MISSING_PERMISSIONS");
}

async function findMessage(db: Db, channelId: string, messageId: string): Promise<MessageRow> {
  const row = await db.message.findUnique({ where: { id: messageId }, include: MESSAGE_INCLUDE });
  if (row?.channelId !== channelId) throw new ApiError("UNKNOWN_MESSAGE");
  return row;
}

/**
 * What a bot without the MESSAGE_CONTENT intent sees: the gateway's rule (message-content.ts),
 * content, embeds, attachments, components and polls emptied except in its own messages (its
 * application's webhooks' included) and those that mention it.
 */
export async function contentReader(ctx: ServiceContext): Promise<(message: MessageObject) => MessageObject> {
  const { actor } = ctx;
  if (actor.kind !== "bot" || (actor.applicationId && (await hasPrivilegedIntent(ctx.db, actor.applicationId, "MESSAGE_CONTENT")))) return (m) => m;
  const reader = { botUserId: actor.userId, applicationId: actor.applicationId };
  return (message) => guildMessageWithoutContent(message, reader);
}

/** Stored messages as the caller reads them over REST: content as their intents allow, with the reactions and whether each is theirs. */
export async function readMessages(ctx: ServiceContext, rows: readonly MessageRow[]): Promise<MessageObject[]> {
  const [objects, read, reactions] = await Promise.all([
    toMessageObjects(ctx.db, rows),
    contentReader(ctx),
    reactionsOf(
      ctx.db,
      rows.map((row) => row.id),
      ctx.actor.userId,
    ),
  ]);
  return objects.map((object) => {
    const own = reactions.get(object.id);
    return read(own ? { ...object, reactions: own } : object);
  });
}

/** A stored message as the caller may read it, and whether they may read its content (forwarding needs it: 160014). */
async function readAs(ctx: ServiceContext, row: MessageRow): Promise<{ message: MessageObject; readable: boolean }> {
  const [object] = await toMessageObjects(ctx.db, [row]);
  const read = await contentReader(ctx);
  return { message: object!, readable: read(object!) === object };
}

/**
 * A reply's or forward's reference, checked: both read the source, so its channel's history
 * must be readable (a reply's own channel's too) before it is looked up: 160002 for a reply,
 * 160014 for a forward. Then the source must exist.
 */
async function resolveReference(ctx: ServiceContext, target: MessageChannel, body: TCreateMessageBody, fileCount: number) {
  const request = body.message_reference;
  if (!request) return null;
  const isForward = request.type === MESSAGE_REFERENCE_FORWARD;
  const sourceChannelId = request.channel_id ?? target.channel.id;
  const source = sourceChannelId === target.channel.id ? target : await loadMessageChannel(ctx, sourceChannelId);
  if (isForward && !source.readable) throw new ApiError("CANNOT_FORWARD_UNREADABLE");
  if (!isForward) enforce(replyHistoryDenial(source) ?? replyHistoryDenial(target));
  const row = await ctx.db.message.findUnique({ where: { id: request.message_id }, include: MESSAGE_INCLUDE });
  const found = row?.channelId === sourceChannelId ? row : null;
  if (!found) {
    if (isForward || (request.fail_if_not_exists ?? true)) {
      throw invalidField(["message_reference"], "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message");
    }
    return null;
  }
  if (isForward) {
    // A forward carries the source alone (spec 9: the application must be able to read it).
    const hasOwn = Boolean(body.content) || (body.embeds?.length ?? 0) > 0 || Boolean(body.poll) || (body.components?.length ?? 0) > 0 || fileCount > 0;
    if (hasOwn) throw invalidField(["message_reference"], "MESSAGE_FORWARD_WITH_CONTENT", "Forwards cannot have content.");
  }
  const copy = isForward ? await readAs(ctx, found) : null;
  if (copy && !copy.readable) throw new ApiError("CANNOT_FORWARD_UNREADABLE");
  const object: MessageReferenceObject = {
    type: isForward ? MESSAGE_REFERENCE_FORWARD : 0,
    message_id: found.id,
    channel_id: found.channelId,
    ...(found.guildId && { guild_id: found.guildId }),
  };
  return { object, repliedUserId: isForward ? null : found.authorId, snapshot: copy && toSnapshot(copy.message) };
}

/**
 * POST /channels/{channel.id}/messages: VIEW_CHANNEL and SEND_MESSAGES (SEND_MESSAGES_IN_THREADS
 * in threads), ATTACH_FILES for files; embeds without EMBED_LINKS and tts without
 * SEND_TTS_MESSAGES are dropped as the platform drops them. Replies (160002 without
 * readable history) and forwards (160014 when the source cannot be read).
 */
export async function sendMessage(ctx: ServiceContext, input: { channelId: string; body: TCreateMessageBody; files: UploadedFile[] }): Promise<MessageObject> {
  const target = await loadMessageChannel(ctx, input.channelId);
  const { guildId, channel, permissions, thread } = target;
  enforce(sendDenial(target));
  if (target.dmWith) enforce(await dmDenialFor(ctx.db, ctx.actor.userId, target.dmWith));
  // A message brings an archived thread back (sendDenial refused it if locked to its managers).
  const unarchive = thread?.row.threadArchived ? thread : null;
  if (input.files.length > 0) enforce(attachDenial(target));
  const body = { ...input.body };
  if (!hasPermission(permissions, P.EmbedLinks)) body.embeds = null;
  if (!hasPermission(permissions, P.SendTTSMessages)) body.tts = false;
  const reference = await resolveReference(ctx, target, body, input.files.length);
  if (reference?.object.type !== MESSAGE_REFERENCE_FORWARD) checkNewMessage(body, input.files);
  const files = newAttachments(input.files, body.attachments);
  return runChange(ctx, async (change) => {
    if (unarchive) await unarchiveThread(change, unarchive);
    const user = (await readUserCards(change.sql, [ctx.actor.userId])).get(ctx.actor.userId);
    if (!user) throw new ApiError("UNKNOWN_USER");
    return createMessage(change, {
      channel,
      guildId,
      author: { kind: "user", user, applicationId: ctx.actor.kind === "bot" ? ctx.actor.applicationId : null },
      body,
      files,
      canMentionEveryone: hasPermission(permissions, P.MentionEveryone),
      reference,
      nonce: body.nonce,
    });
  });
}

/** Takes a thread out of the archive in the caller's change; Thread Update. */
async function unarchiveThread(change: Change, thread: { row: ThreadRow; parentType: number }): Promise<void> {
  const row = await change.tx.channel.update({
    where: { id: thread.row.id },
    data: { threadArchived: false, threadArchiveTimestamp: new Date() },
    include: THREAD_INCLUDE,
  });
  await change.emit(GatewayDispatchEvents.ThreadUpdate, toThreadObject(row, thread.parentType));
}

/** The ids of one page of a channel's messages, newest first. */
async function pageIds(db: Db, channelId: string, query: TListMessagesQuery): Promise<string[]> {
  const limit = query.limit ?? 50;
  const column = Prisma.sql`"id"`;
  const select = async (side: ">" | "<" | null, id: string | null, take: number, inclusive = false) => {
    if (take <= 0) return [];
    const bound = side && id ? Prisma.sql`AND (${snowflakeBeyond(column, side, id)}${inclusive ? Prisma.sql` OR "id" = ${id}` : Prisma.empty})` : Prisma.empty;
    const order = orderBySnowflake(column, side === ">" ? "ASC" : "DESC");
    const rows = await db.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Message" WHERE "channelId" = ${channelId} ${bound} ${order} LIMIT ${take}`;
    return rows.map((r) => r.id);
  };
  if (query.around) {
    // The message itself (when it is there) with the others split around it.
    const after = await select(">", query.around, Math.floor(limit / 2));
    const before = await select("<", query.around, limit - after.length, true);
    return [...after.reverse(), ...before];
  }
  if (query.after) return (await select(">", query.after, limit)).reverse();
  return select(query.before ? "<" : null, query.before ?? null, limit);
}

/** GET /channels/{channel.id}/messages: VIEW_CHANNEL and READ_MESSAGE_HISTORY; newest first; limit 1-100 (50), before, after or around. */
export async function listMessages(ctx: ServiceContext, input: { channelId: string; query: TListMessagesQuery }): Promise<MessageObject[]> {
  const { readable, channel } = await loadMessageChannel(ctx, input.channelId);
  if (!readable) return [];
  const ids = await pageIds(ctx.db, channel.id, input.query);
  const rows = await ctx.db.message.findMany({ where: { id: { in: ids } }, include: MESSAGE_INCLUDE });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return readMessages(
    ctx,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}

/** GET /channels/{channel.id}/messages/{message.id}: VIEW_CHANNEL and READ_MESSAGE_HISTORY; 10008 Unknown Message. */
export async function getMessage(ctx: ServiceContext, input: { channelId: string; messageId: string }): Promise<MessageObject> {
  const { readable, channel } = await loadMessageChannel(ctx, input.channelId);
  if (!readable) throw new ApiError("MISSING_PERMISSIONS");
  const row = await findMessage(ctx.db, channel.id, input.messageId);
  const [object] = await readMessages(ctx, [row]);
  return object!;
}

/** PATCH /channels/{channel.id}/messages/{message.id}: the caller's own messages only (50005); editMessage's rules; Message Update. */
export async function editOwnMessage(
  ctx: ServiceContext,
  input: { channelId: string; messageId: string; body: TEditMessageBody; files: UploadedFile[] },
): Promise<MessageObject> {
  const target = await loadMessageChannel(ctx, input.channelId);
  const { permissions, channel } = target;
  const message = await findMessage(ctx.db, channel.id, input.messageId);
  enforce(editDenial(ctx.actor.userId, message.authorId));
  if (input.files.length > 0) enforce(attachDenial(target));
  const body = { ...input.body };
  if (body.embeds && !hasPermission(permissions, P.EmbedLinks)) body.embeds = undefined;
  return runChange(ctx, (change) =>
    editMessage(change, { message, body, files: input.files, canMentionEveryone: hasPermission(permissions, P.MentionEveryone) }),
  );
}

/**
 * DELETE /channels/{channel.id}/messages/{message.id}: the caller's own, or anyone's with
 * MANAGE_MESSAGES, audited as MESSAGE_DELETE only then. Message Delete.
 */
export async function deleteChannelMessage(ctx: ServiceContext, input: { channelId: string; messageId: string }): Promise<void> {
  const target = await loadMessageChannel(ctx, input.channelId);
  const { guildId, channel } = target;
  const message = await findMessage(ctx.db, channel.id, input.messageId);
  const isOwn = message.authorId === ctx.actor.userId;
  enforce(deleteDenial(target, isOwn));
  await runChange(ctx, async (change) => {
    await deleteMessage(change, message);
    if (!isOwn && guildId) {
      await change.audit({
        guildId,
        actionType: AuditLogEvent.MessageDelete,
        targetId: message.authorId ?? message.webhookId,
        options: { channel_id: channel.id, count: "1" },
      });
    }
  });
}
