import { AuditLogEvent, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { snowflakeTimestamp } from "~/server/snowflake/snowflake.ts";
import { deleteMessagesInBulk } from "./message-bulk-delete.ts";
import type { TBulkDeleteBody } from "./message.schema.ts";
import { loadMessageChannel, requirePermission } from "./message.service.ts";

/** How old a message may be and still go in a bulk delete: the platform's two weeks, read from its id. */
const BULK_DELETE_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

/** Whether every id is of a message younger than two weeks at `now`. */
function isYoungEnoughForBulkDelete(ids: readonly string[], now: Date): boolean {
  return ids.every((id) => now.getTime() - snowflakeTimestamp(id).getTime() < BULK_DELETE_MAX_AGE_MS);
}

/**
 * POST /channels/{channel.id}/messages/bulk-delete: MANAGE_MESSAGES; 2-100 distinct ids, none
 * of a message two weeks old or more (50034, nothing deleted). Ids of no message in the channel
 * count towards the limits and are passed over, as the platform does. One MESSAGE_DELETE_BULK,
 * and a MESSAGE_BULK_DELETE audit entry with the count deleted.
 */
export async function bulkDeleteMessages(ctx: ServiceContext, input: { channelId: string; body: TBulkDeleteBody }): Promise<void> {
  const { guildId, channel, permissions } = await loadMessageChannel(ctx, input.channelId);
  // Bulk delete is for guild channels only, whatever one holds in a DM.
  if (!guildId) throw new ApiError("CANNOT_EXECUTE_ON_DM");
  requirePermission(permissions, P.ManageMessages);
  const ids = input.body.messages;
  if (!isYoungEnoughForBulkDelete(ids, new Date())) throw new ApiError("BULK_DELETE_TOO_OLD");
  await runChange(ctx, async (change) => {
    const messages = await change.tx.message.findMany({
      where: { id: { in: ids }, channelId: channel.id },
      select: { id: true, channelId: true, guildId: true },
    });
    if (messages.length === 0) return;
    await deleteMessagesInBulk(change, messages);
    await change.audit({
      guildId,
      actionType: AuditLogEvent.MessageBulkDelete,
      targetId: channel.id,
      options: { count: String(messages.length) },
    });
  });
}
