// Who may post, reply, edit, delete, pin, react and start a thread where: one pure decision
// each, which the message, pin, reaction and thread services enforce and the Messages view shows.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { missingIn, type Denial, type Standing } from "~/server/permissions/denial.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";

/** Where a message is written or acted on, as these rules need it. */
export type MessagePlace = {
  /** The caller's permissions there. */
  permissions: bigint;
  /** They may read its history (canReadMessages). */
  readable: boolean;
  standing: Standing;
  /** For threads: whether it is archived, and locked to all but its managers. */
  thread: { row: { threadArchived: boolean | null; threadLocked: boolean | null } } | null;
};

/** Nothing held back: a DM's recipients are never timed out or screened. */
export const NO_STANDING: Standing = { isTimedOut: false, isPending: false };

function lacking(place: MessagePlace, ...flags: bigint[]): Denial | null {
  return missingIn(place.standing, place.permissions, flags, place.thread ? " in this thread" : " in this channel");
}

function unreadable(place: MessagePlace, error: Denial["error"]): Denial | null {
  return place.readable ? null : { error, reason: `Needs Read message history ${place.thread ? "in this thread" : "in this channel"}.` };
}

/** SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in threads); an archived thread locked to its managers takes no message from others (50083). */
export function sendDenial(place: MessagePlace): Denial | null {
  const denial = lacking(place, place.thread ? P.SendMessagesInThreads : P.SendMessages);
  if (denial || !place.thread) return denial;
  const { threadArchived, threadLocked } = place.thread.row;
  if (threadArchived && threadLocked && !hasPermission(place.permissions, P.ManageThreads))
    return { error: "THREAD_ARCHIVED", reason: "This thread is archived and locked." };
  return null;
}

/** Files need ATTACH_FILES. */
export function attachDenial(place: MessagePlace): Denial | null {
  return lacking(place, P.AttachFiles);
}

/** A reply reads the message it answers: the history of its place must be readable (160002). */
export function replyHistoryDenial(place: MessagePlace): Denial | null {
  return unreadable(place, "CANNOT_REPLY_WITHOUT_HISTORY");
}

/** Replying in the same place: what sending needs, and its history. */
export function replyDenial(place: MessagePlace): Denial | null {
  return sendDenial(place) ?? replyHistoryDenial(place);
}

/** Only a message's author edits it (50005). */
export function editDenial(userId: string, authorId: string | null): Denial | null {
  return authorId === userId ? null : { error: "NOT_AUTHOR", reason: "Only its author can edit a message." };
}

/** One's own message, or anyone's with MANAGE_MESSAGES. */
export function deleteDenial(place: MessagePlace, isOwn: boolean): Denial | null {
  return isOwn ? null : lacking(place, P.ManageMessages);
}

/** Pinning and unpinning: PIN_MESSAGES, where the history is readable (50001 otherwise). */
export function pinDenial(place: MessagePlace): Denial | null {
  return lacking(place, P.PinMessages) ?? unreadable(place, "MISSING_ACCESS");
}

/**
 * Reacting: the history must be readable, an archived thread takes none (50083), and an emoji
 * no one has reacted with yet (`isNewEmoji`) needs ADD_REACTIONS; joining a reaction does not.
 */
export function reactDenial(place: MessagePlace, isNewEmoji: boolean): Denial | null {
  const denial = unreadable(place, "MISSING_PERMISSIONS");
  if (denial) return denial;
  if (place.thread?.row.threadArchived) return { error: "THREAD_ARCHIVED", reason: "This thread is archived." };
  return isNewEmoji ? lacking(place, P.AddReactions) : null;
}

/** Starting a thread from a message: CREATE_PUBLIC_THREADS and READ_MESSAGE_HISTORY in its channel. */
export function messageThreadDenial(place: Pick<MessagePlace, "permissions" | "standing">): Denial | null {
  return missingIn(place.standing, place.permissions, [P.CreatePublicThreads, P.ReadMessageHistory], " in this channel");
}
