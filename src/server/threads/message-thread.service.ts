import { ChannelType, GatewayDispatchEvents, MessageFlags } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { messageEventData } from "~/server/messages/message-event.ts";
import { messageThreadDenial } from "~/server/messages/message-rules.ts";
import { MESSAGE_INCLUDE, toMessageObjects } from "~/server/messages/message.dto.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { loadChannelNotThread } from "./thread-access.ts";
import { openThread } from "./thread-open.ts";
import type { ThreadObject } from "./thread.dto.ts";
import type { TMessageThreadBody } from "./thread.schema.ts";

/**
 * POST /channels/{channel.id}/messages/{message.id}/threads: a public thread (an announcement
 * thread in an announcement channel) started from a message, as the platform links them: the
 * thread takes the message's id, and the message is flagged HAS_THREAD (Message Update). Needs
 * CREATE_PUBLIC_THREADS and READ_MESSAGE_HISTORY; one thread per message (160004).
 */
export async function startThreadFromMessage(
  ctx: ServiceContext,
  input: { channelId: string; messageId: string; body: TMessageThreadBody },
): Promise<ThreadObject> {
  const { access, channel: parent, permissions } = await loadChannelNotThread(ctx, input.channelId);
  const type =
    parent.type === ChannelType.GuildText ? ChannelType.PublicThread : parent.type === ChannelType.GuildAnnouncement ? ChannelType.AnnouncementThread : null;
  if (type === null) throw new ApiError("WRONG_CHANNEL_TYPE");
  enforce(messageThreadDenial({ permissions, standing: access }));
  const userId = ctx.actor.userId;
  return runChange(ctx, async (change) => {
    const message = await change.tx.message.findUnique({ where: { id: input.messageId } });
    if (message?.channelId !== parent.id) throw new ApiError("UNKNOWN_MESSAGE");
    // The thread's id is the message's: a thread row under that id means one was started (even if since deleted, the flag stays).
    if (message.threadId || (await change.tx.channel.findUnique({ where: { id: message.id }, select: { id: true } })))
      throw new ApiError("THREAD_ALREADY_CREATED");
    const thread = await openThread(change, {
      id: message.id,
      guildId: access.guild.id,
      parent,
      type,
      name: input.body.name,
      ownerId: userId,
      joinsAs: userId,
      rateLimitPerUser: input.body.rate_limit_per_user,
      autoArchiveDuration: input.body.auto_archive_duration,
    });
    const row = await change.tx.message.update({
      where: { id: message.id },
      data: { threadId: message.id, flags: message.flags | MessageFlags.HasThread },
      include: MESSAGE_INCLUDE,
    });
    const [object] = await toMessageObjects(change.tx, [row]);
    await change.emit(GatewayDispatchEvents.MessageUpdate, await messageEventData(change.sql, object!, access.guild.id));
    return thread;
  });
}
