import { GatewayDispatchEvents } from "discord-api-types/v10";
import { Prisma, type Message } from "~/generated/prisma/client.ts";
import type { Tx } from "~/server/db/client.ts";
import { snowflakeBetween } from "~/server/db/snowflake-sql.ts";
import type { Change } from "~/server/events/change.ts";
import { removeAttachmentFiles } from "./attachments.ts";

/** Ids per Message Delete Bulk, the most the platform's bulk delete takes; longer lists go in several events. */
const IDS_PER_EVENT = 100;

export type BulkDeletedMessage = Pick<Message, "id" | "channelId" | "guildId">;

/**
 * Deletes messages in the caller's change, as the platform does for a ban's message history:
 * their files go with them, the search index follows (its triggers), and each channel hears
 * Message Delete Bulk with the ids.
 */
export async function deleteMessagesInBulk(change: Change, messages: readonly BulkDeletedMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const ids = messages.map((message) => message.id);
  await removeAttachmentFiles(change, await change.tx.attachment.findMany({ where: { messageId: { in: ids } }, select: { path: true } }));
  await change.tx.message.deleteMany({ where: { id: { in: ids } } });
  const byChannel = new Map<string, BulkDeletedMessage[]>();
  for (const message of messages) byChannel.set(message.channelId, [...(byChannel.get(message.channelId) ?? []), message]);
  for (const [channelId, inChannel] of byChannel) {
    const guildId = inChannel[0]!.guildId;
    for (let i = 0; i < inChannel.length; i += IDS_PER_EVENT) {
      await change.emit(GatewayDispatchEvents.MessageDeleteBulk, {
        ids: inChannel.slice(i, i + IDS_PER_EVENT).map((message) => message.id),
        channel_id: channelId,
        ...(guildId && { guild_id: guildId }),
      });
    }
  }
}

/** Up to `limit` of a user's messages in a guild (every channel and thread) with ids from `sinceId` to `untilId`. */
export async function userMessagesBetween(
  tx: Tx,
  input: { guildId: string; userId: string; sinceId: string; untilId: string; limit: number },
): Promise<BulkDeletedMessage[]> {
  return tx.$queryRaw<BulkDeletedMessage[]>`
    SELECT "id", "channelId", "guildId" FROM "Message"
    WHERE "guildId" = ${input.guildId} AND ${snowflakeBetween(Prisma.raw(`"id"`), input.sinceId, input.untilId)} AND "authorId" = ${input.userId}
    LIMIT ${input.limit}`;
}
