import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { ChannelAccess } from "~/server/channels/channel-read.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { createMessage, type MessageAuthor, type MessageContentInput } from "~/server/messages/message-create.service.ts";
import type { MessageObject } from "~/server/messages/message.dto.ts";
import { checkNewMessage, newAttachments, type NewAttachment, type UploadedFile } from "~/server/messages/message-validation.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { checkNewPostTags } from "./forum-tags.ts";
import { openThread, type ThreadParentRow } from "./thread-open.ts";
import type { ThreadObject } from "./thread.dto.ts";
import type { TThreadCreateBody } from "./thread.schema.ts";

/** A new post as the platform answers it: the thread channel object with its first message. */
export type ForumPostObject = ThreadObject & { message: MessageObject };

export type ForumPostInput = {
  guildId: string;
  parent: ThreadParentRow;
  name: string;
  autoArchiveDuration?: number | null;
  rateLimitPerUser?: number | null;
  /** Checked by checkNewPostTags. */
  appliedTags: readonly string[];
  author: MessageAuthor;
  /** Checked by the messages module (checkNewMessage, newAttachments). */
  body: MessageContentInput;
  files: readonly NewAttachment[];
  canMentionEveryone?: boolean;
};

/**
 * Writes a post in a forum or media channel in the caller's change, for members and bots
 * (startForumPost) and webhooks (thread_name): a public thread and its first message, which
 * share one id. The thread opens as every thread does (openThread: the active thread limit,
 * audit, Thread Create); the message is posted as every message is (Message Create). The
 * forum's last_message_id then names its newest post, as the platform's does.
 */
export async function writeForumPost(change: Change, input: ForumPostInput): Promise<ForumPostObject> {
  const { author, guildId, parent } = input;
  const id = newId();
  const authorId = author.kind === "user" ? author.user.id : author.webhook.id;
  const thread = await openThread(change, {
    id,
    guildId,
    parent,
    type: ChannelType.PublicThread,
    name: input.name,
    ownerId: authorId,
    joinsAs: author.kind === "user" ? authorId : null,
    rateLimitPerUser: input.rateLimitPerUser,
    autoArchiveDuration: input.autoArchiveDuration,
    appliedTags: input.appliedTags,
    lastMessageId: id,
  });
  await change.tx.channel.update({ where: { id: parent.id }, data: { lastMessageId: id } });
  const message = await createMessage(change, {
    channel: { id, type: ChannelType.PublicThread },
    guildId,
    author,
    body: input.body,
    files: input.files,
    canMentionEveryone: input.canMentionEveryone,
    startsThread: true,
  });
  return { ...thread, message };
}

function requirePermission(permissions: bigint, flag: bigint): void {
  if (!hasPermission(permissions, flag)) throw new ApiError("MISSING_PERMISSIONS");
}

/**
 * POST /channels/{channel.id}/threads on a forum or media channel: a post by a member or
 * bot. `message` is required. Needs SEND_MESSAGES in the channel (the platform ignores
 * CREATE_PUBLIC_THREADS here), ATTACH_FILES for files; embeds without EMBED_LINKS are
 * dropped as in any message. Tags: checkNewPostTags, moderated ones with MANAGE_THREADS.
 */
export async function startForumPost(
  ctx: ServiceContext,
  input: { parent: ChannelAccess; body: TThreadCreateBody; files: readonly UploadedFile[] },
): Promise<ForumPostObject> {
  const { access, channel: parent, permissions } = input.parent;
  const { body, files } = input;
  if (!body.message) throw invalidField(["message"], "BASE_TYPE_REQUIRED", "This field is required");
  requirePermission(permissions, P.SendMessages);
  if (files.length > 0) requirePermission(permissions, P.AttachFiles);
  const message = { ...body.message, ...(!hasPermission(permissions, P.EmbedLinks) && { embeds: null }) };
  checkNewMessage(message, files);
  const attachments = newAttachments(files, message.attachments);
  const appliedTags = checkNewPostTags(parent, body.applied_tags, hasPermission(permissions, P.ManageThreads));
  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: ctx.actor.userId } });
  return runChange(ctx, (change) =>
    writeForumPost(change, {
      guildId: access.guild.id,
      parent,
      name: body.name,
      autoArchiveDuration: body.auto_archive_duration,
      rateLimitPerUser: body.rate_limit_per_user,
      appliedTags,
      author: { kind: "user", user, applicationId: ctx.actor.kind === "bot" ? ctx.actor.applicationId : null },
      body: message,
      files: attachments,
      canMentionEveryone: hasPermission(permissions, P.MentionEveryone),
    }),
  );
}
