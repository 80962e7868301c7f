// MESSAGE_CONTENT ("Message Content Intent"): without it an app receives other users'
// messages with content, embeds, attachments and components empty and no poll. The app's
// own messages (its bot's, and those sent through a webhook the application owns, which carry
// its application_id), messages mentioning it and DMs keep them. The gateway and REST reads
// both decide with this. Pure.
import { GatewayIntentBits } from "discord-api-types/v10";
import type { GatewayMessageCreateDispatchData, GatewayMessageUpdateDispatchData } from "discord-api-types/v10";
import { hasIntent } from "./intents.ts";

/** A message as MESSAGE_CREATE and MESSAGE_UPDATE carry it. */
export type MessageEventData = GatewayMessageCreateDispatchData | GatewayMessageUpdateDispatchData;

/** The app a session (or a REST call) speaks for, as the exemptions need it. */
export type MessageReader = { botUserId: string; applicationId: string | null };

/**
 * Whether the session sees message content at all: the application holds the privileged
 * intent and the session asked for it in IDENTIFY (the platform needs both).
 */
export function readsMessageContent(session: { intents: number; messageContent: boolean }): boolean {
  return session.messageContent && hasIntent(session.intents, GatewayIntentBits.MessageContent);
}

// The fields the rule reads and writes, for a message and the one it replies to alike.
type ContentMessage = {
  author?: { id: string };
  application_id?: string;
  mentions?: readonly { id: string }[];
  content?: string;
  embeds?: unknown[];
  attachments?: unknown[];
  components?: unknown[];
  poll?: unknown;
  referenced_message?: ContentMessage | null;
  message_snapshots?: { message: ContentMessage }[];
};

/**
 * Whether a guild message's content reaches this app without the intent: its own (its bot's,
 * or sent through a webhook of the application: the platform's "messages that an app sends"),
 * or mentioning it.
 */
function isContentExempt(message: ContentMessage, reader: MessageReader): boolean {
  if (message.author?.id === reader.botUserId) return true;
  if (message.application_id !== undefined && message.application_id === reader.applicationId) return true;
  return message.mentions?.some((user) => user.id === reader.botUserId) ?? false;
}

function emptied(message: ContentMessage): ContentMessage {
  const { poll: _poll, ...rest } = message;
  return { ...rest, content: "", embeds: [], attachments: [], components: [] };
}

// A reply's referenced message is judged by its own author and mentions; a forward's
// snapshots are the forwarding message's content.
function hides(message: ContentMessage, reader: MessageReader): boolean {
  return !isContentExempt(message, reader) || (!!message.referenced_message && hides(message.referenced_message, reader));
}

function blank(message: ContentMessage, reader: MessageReader): ContentMessage {
  const referenced = message.referenced_message;
  const reference = referenced && hides(referenced, reader) ? blank(referenced, reader) : referenced;
  if (isContentExempt(message, reader)) return { ...message, referenced_message: reference };
  const result = emptied(message);
  if (referenced) result.referenced_message = reference;
  if (message.message_snapshots) result.message_snapshots = message.message_snapshots.map((snapshot) => ({ ...snapshot, message: emptied(snapshot.message) }));
  return result;
}

/** Whether the app, reading without MESSAGE_CONTENT, sees less of this message than was sent (`withoutContent` changes it). */
export function hidesContent(message: MessageEventData, reader: MessageReader): boolean {
  return message.guild_id !== undefined && hides(message, reader);
}

/** The message as this app sees it without MESSAGE_CONTENT: the same object when nothing is hidden from it. */
export function withoutContent<T extends MessageEventData>(message: T, reader: MessageReader): T {
  return hidesContent(message, reader) ? (blank(message, reader) as T) : message;
}

/** A guild channel's message read over REST as this app sees it without MESSAGE_CONTENT (REST objects carry no guild_id). */
export function guildMessageWithoutContent<T extends ContentMessage>(message: T, reader: MessageReader): T {
  return hides(message, reader) ? (blank(message, reader) as T) : message;
}
