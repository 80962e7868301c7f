import { GatewayDispatchEvents, MessageFlags, MessageType } from "discord-api-types/v10";
import type { Message, Webhook } from "~/generated/prisma/client.ts";
import type { UserCard } from "~/server/users/user-queries.ts";
import { publicUrl } from "~/env.ts";
import type { Change } from "~/server/events/change.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import { THREAD_TYPES } from "~/server/channels/channel.dto.ts";
import { prepareAttachments, writeAttachments } from "./attachments.ts";
import { resolveMentions } from "./mentions.ts";
import { toMessageObjects, type MessageObject, type MessageReferenceObject, type MessageSnapshot } from "./message.dto.ts";
import { messageEventData } from "./message-event.ts";
import { insertMessageRow, moveLastMessage } from "./message-queries.ts";
import type { TEmbed, TMessageFields, TPollRequest } from "./message.schema.ts";
import type { NewAttachment } from "./message-validation.ts";
import { toStoredComponents } from "./stored-components.ts";

/** Who posts: a user or bot, or a webhook under its own name and avatar or the request's overrides. */
export type MessageAuthor =
  | { kind: "user"; user: UserCard; applicationId?: string | null }
  | {
      kind: "webhook";
      webhook: Pick<Webhook, "id" | "name" | "avatar" | "applicationId">;
      username?: string | null;
      avatarUrl?: string | null;
      applicationId?: string | null;
    };

/** What a message says, validated (message.schema.ts, message-validation.ts). */
export type MessageContentInput = Pick<TMessageFields, "content" | "tts" | "embeds" | "allowed_mentions" | "components" | "flags" | "poll">;

export type CreateMessageInput = {
  /** The channel (or thread) posted in. */
  channel: { id: string; type: number };
  guildId: string | null;
  author: MessageAuthor;
  body: MessageContentInput;
  /** Files paired with their attachment entries (newAttachments). */
  files?: readonly NewAttachment[];
  /** MENTION_EVERYONE in the channel; webhooks may always. */
  canMentionEveryone?: boolean;
  /** A reply or forward, already checked by the caller; `repliedUserId` is the replied-to message's author, `snapshot` a forward's copy. */
  reference?: { object: MessageReferenceObject; repliedUserId: string | null; snapshot?: MessageSnapshot | null } | null;
  /** The sender's nonce, answered back (and in the event) but not stored. */
  nonce?: string | number | null;
  /**
   * The first message of a forum or media post (`channel` is the new thread): it takes the
   * thread's id, and the thread's counts leave it out as the platform's do (they count replies).
   */
  startsThread?: boolean;
  /** A crosspost's copy in a following channel: IS_CROSSPOST, referencing its source (not a reply). */
  crosspostOf?: MessageReferenceObject;
  /** The system message of a pin (CHANNEL_PINNED_MESSAGE), referencing the pinned message. */
  pinOf?: MessageReferenceObject;
};

/** Embeds as stored and answered: the rich type, no nulls, fields' inline spelled out. */
export function toStoredEmbeds(embeds: readonly TEmbed[] | null | undefined): unknown[] {
  return (embeds ?? []).map((embed) => {
    const { fields, ...rest } = withoutNulls(embed);
    return { type: "rich", ...rest, ...(fields && { fields: fields.map((field) => ({ ...field, inline: field.inline ?? false })) }) };
  });
}

function withoutNulls<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], null> } {
  const entries = Object.entries(value).flatMap(([key, v]): [string, unknown][] => {
    if (v === null || v === undefined) return [];
    if (typeof v === "object" && !Array.isArray(v)) return [[key, withoutNulls(v as object)]];
    return [[key, v]];
  });
  return Object.fromEntries(entries) as { [K in keyof T]: Exclude<T[K], null> };
}

const HOUR_MS = 60 * 60 * 1000;

/** A poll request as the poll object answered: answers numbered from 1, the expiry from its duration (24 hours by default). */
function toStoredPoll(poll: TPollRequest, now: Date): unknown {
  return {
    question: { text: poll.question.text },
    answers: poll.answers.map(({ poll_media: media }, i) => ({
      answer_id: i + 1,
      poll_media: {
        text: media.text,
        ...(media.emoji && { emoji: { id: media.emoji.id ?? null, name: media.emoji.name ?? null, ...(media.emoji.animated && { animated: true }) } }),
      },
    })),
    expiry: new Date(now.getTime() + (poll.duration ?? 24) * HOUR_MS).toISOString(),
    allow_multiselect: poll.allow_multiselect ?? false,
    layout_type: poll.layout_type ?? 1,
    results: { is_finalized: false, answer_counts: [] },
  };
}

function authorColumns(author: MessageAuthor) {
  if (author.kind === "user")
    return { authorId: author.user.id, webhookId: null, authorName: null, authorAvatarUrl: null, applicationId: author.applicationId ?? null };
  const { webhook } = author;
  const ownAvatar = webhook.avatar ? publicUrl(`/cdn/avatars/${webhook.id}/${webhook.avatar}.png`) : null;
  return {
    authorId: null,
    webhookId: webhook.id,
    authorName: author.username || webhook.name || "",
    authorAvatarUrl: author.avatarUrl || ownAvatar,
    applicationId: author.applicationId ?? webhook.applicationId ?? null,
  };
}

/**
 * Stores a message and its files in the caller's change, moves the channel's last message
 * id (and a thread's counts) and fires Message Create with the message object. Every
 * author posts through it: bots (message.rest.ts) and webhooks.
 */
export async function createMessage(change: Change, input: CreateMessageInput): Promise<MessageObject> {
  const { tx, sql, emit } = change;
  const { body, channel } = input;
  const id = input.startsThread ? channel.id : newId();
  const now = new Date();
  const content = body.content ?? "";
  const mentions = await resolveMentions(tx, {
    guildId: input.guildId,
    content,
    allowedMentions: body.allowed_mentions,
    canMentionEveryone: input.author.kind === "webhook" || (input.canMentionEveryone ?? false),
    repliedUserId: input.reference?.repliedUserId,
  });
  const isReply = !input.crosspostOf && input.reference?.object.type === 0;
  const created: Message = {
    id,
    channelId: channel.id,
    guildId: input.guildId,
    ...authorColumns(input.author),
    type: input.pinOf ? MessageType.ChannelPinnedMessage : isReply ? MessageType.Reply : MessageType.Default,
    content,
    tts: body.tts ?? false,
    embeds: JSON.stringify(toStoredEmbeds(body.embeds)),
    components: JSON.stringify(toStoredComponents(body.components ?? [])),
    flags: (body.flags ?? 0) | (input.reference?.snapshot ? MessageFlags.HasSnapshot : 0) | (input.crosspostOf ? MessageFlags.IsCrosspost : 0),
    mentionEveryone: mentions.everyone,
    mentions: JSON.stringify(mentions.userIds),
    mentionRoles: JSON.stringify(mentions.roleIds),
    poll: body.poll ? JSON.stringify(toStoredPoll(body.poll, now)) : null,
    reference:
      (input.crosspostOf ?? input.pinOf)
        ? JSON.stringify(input.crosspostOf ?? input.pinOf)
        : input.reference
          ? JSON.stringify({ ...input.reference.object, ...(input.reference.snapshot && { message_snapshots: [input.reference.snapshot] }) })
          : null,
    createdAt: now,
    threadId: null,
    pinned: false,
    pinnedAt: null,
    editedAt: null,
  };
  await insertMessageRow(sql, created);
  const attachments = await writeAttachments(tx, { messageId: id, channelId: channel.id, attachments: prepareAttachments(input.files ?? []) });
  const isCountedReply = THREAD_TYPES.includes(channel.type) && !input.startsThread;
  const counted = isCountedReply ? 1 : 0;
  await moveLastMessage(sql, { channelId: channel.id, messageId: id, counted });
  // A message is a thread's activity: its auto-archive clock starts again.
  if (THREAD_TYPES.includes(channel.type)) await tx.channel.update({ where: { id: channel.id }, data: { threadActiveAt: now } });
  const known = input.author.kind === "user" ? [toUserObject(input.author.user)] : [];
  const [stored] = await toMessageObjects(tx, [{ ...created, attachments }], known);
  const message: MessageObject = { ...stored!, ...(input.nonce !== undefined && input.nonce !== null && { nonce: input.nonce }) };
  // The platform names the channel's type on MESSAGE_CREATE: discord.js builds a DM channel it
  // has not cached from it (Partials.Channel), and drops the message without it.
  await emit(GatewayDispatchEvents.MessageCreate, { ...(await messageEventData(sql, message, input.guildId)), channel_type: channel.type });
  return message;
}
