// Who may read a channel's messages: one decision for every read (get, list, search, the
// source of a reply, forward or crosspost, the dashboard's pages). Whether a bot sees their
// content (the MESSAGE_CONTENT intent) is decided after, by contentReader.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { canSeeThread } from "~/server/threads/thread-access.ts";

/**
 * Whether the caller may read the messages of a channel or thread, from their permissions
 * there after overwrites (a thread's come from its parent): VIEW_CHANNEL and
 * READ_MESSAGE_HISTORY, and a private thread only when `joined` or with MANAGE_THREADS.
 */
export function canReadMessages(permissions: bigint, channel: { type: number; joined?: boolean }): boolean {
  return canSeeThread(permissions, channel.type, channel.joined ?? false) && hasPermission(permissions, P.ReadMessageHistory);
}
