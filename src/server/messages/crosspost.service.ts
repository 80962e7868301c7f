import { AttachmentFlags, ChannelType, GatewayDispatchEvents, MessageFlags, PermissionFlagsBits as P, WebhookType } from "discord-api-types/v10";
import type { Attachment } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { loadChannelNotThread } from "~/server/threads/thread-access.ts";
import type { TComponent } from "./component.schema.ts";
import { createMessage } from "./message-create.service.ts";
import { MESSAGE_INCLUDE, parseJson, toMessageObjects, type MessageObject, type MessageRow } from "./message.dto.ts";
import { messageEventData } from "./message-event.ts";
import type { TEmbed } from "./message.schema.ts";
import { contentReader } from "./message.service.ts";
import { canReadMessages } from "./message-access.ts";
import type { NewAttachment } from "./message-validation.ts";

/** Channels a follower webhook can still post a copy in (it may have been moved since it was made). */
const DELIVERY_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildVoice, ChannelType.GuildStageVoice];
/** What of the source's flags a copy keeps: how it is drawn. */
const COPIED_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.IsComponentsV2;

type CrosspostInput = { channelId: string; messageId: string };

/**
 * Whether the caller may publish this message: it is in an announcement channel (else 50024)
 * they can see and read the history of, and they hold SEND_MESSAGES, and MANAGE_MESSAGES as well for another
 * author's message. REST asks before counting the channel's publications, which every
 * publisher shares.
 */
export async function checkCrosspost(ctx: ServiceContext, input: CrosspostInput): Promise<{ channelId: string; row: MessageRow }> {
  const { channel, permissions } = await loadChannelNotThread(ctx, input.channelId);
  if (channel.type !== ChannelType.GuildAnnouncement) throw new ApiError("WRONG_CHANNEL_TYPE");
  // Publishing hands the message back: it is a read of the channel's history.
  if (!canReadMessages(permissions, channel)) throw new ApiError("MISSING_PERMISSIONS");
  const row = await ctx.db.message.findUnique({ where: { id: input.messageId }, include: MESSAGE_INCLUDE });
  if (row?.channelId !== channel.id) throw new ApiError("UNKNOWN_MESSAGE");
  const isOwn = row.authorId === ctx.actor.userId;
  if (!hasPermission(permissions, P.SendMessages) || (!isOwn && !hasPermission(permissions, P.ManageMessages))) throw new ApiError("MISSING_PERMISSIONS");
  return { channelId: channel.id, row };
}

/**
 * POST /channels/{channel.id}/messages/{message.id}/crosspost: publishes a message of an
 * announcement channel to the channels following it (checkCrosspost), once only (40033).
 * Sets CROSSPOSTED (Message Update) and answers the message; then each follower webhook
 * posts a copy.
 */
export async function crosspostMessage(ctx: ServiceContext, input: CrosspostInput, log: (error: unknown) => void = console.error): Promise<MessageObject> {
  const { row } = await checkCrosspost(ctx, input);
  if (row.flags & MessageFlags.Crossposted) throw new ApiError("ALREADY_CROSSPOSTED");
  const published: MessageRow = { ...row, flags: row.flags | MessageFlags.Crossposted };
  const message = await runChange(ctx, async (change) => {
    // One conditional UPDATE: of two publishers at once, one wins and the other gets 40033.
    const count = await change.tx
      .$executeRaw`UPDATE "Message" SET "flags" = "flags" | ${MessageFlags.Crossposted} WHERE "id" = ${row.id} AND ("flags" & ${MessageFlags.Crossposted}) = 0`;
    if (count === 0) throw new ApiError("ALREADY_CROSSPOSTED");
    const [object] = await toMessageObjects(change.tx, [published]);
    await change.emit(GatewayDispatchEvents.MessageUpdate, await messageEventData(change.sql, object!, row.guildId));
    return object!;
  });
  await deliverCrosspost(ctx.db, published, log);
  // Answered as GET would answer it: without MESSAGE_CONTENT a bot sees others' content emptied.
  return (await contentReader(ctx))(message);
}

/** The source's files, read once, to be stored again with every copy (a copy keeps its bytes when the source is deleted). */
async function copyFiles(db: Db, attachments: readonly Attachment[]): Promise<NewAttachment[]> {
  const stored = attachments.length ? await db.image.findMany({ where: { path: { in: attachments.map((a) => a.path) } } }) : [];
  const byPath = new Map(stored.map((image) => [image.path, image]));
  return attachments.flatMap((attachment, index) => {
    const image = byPath.get(attachment.path);
    if (!image) return [];
    return {
      file: { index, filename: attachment.filename, contentType: attachment.contentType ?? image.contentType, data: Buffer.from(image.data) },
      filename: attachment.filename,
      title: attachment.title,
      description: attachment.description,
      isSpoiler: (attachment.flags & AttachmentFlags.IsSpoiler) !== 0,
    };
  });
}

/**
 * Posts the published message through every channel follower webhook of its channel, each
 * in its own change: a follower that cannot take it (its channel gone to a kind that holds
 * no messages, a failed write) is logged and skipped, and never undoes the publication.
 */
async function deliverCrosspost(db: Db, source: MessageRow, log: (error: unknown) => void): Promise<void> {
  const followers = await db.webhook.findMany({
    where: { type: WebhookType.ChannelFollower, sourceChannelId: source.channelId },
    include: { channel: { select: { id: true, type: true } } },
    orderBy: { id: "asc" },
  });
  if (followers.length === 0) return;
  const files = await copyFiles(db, source.attachments);
  const reference = { type: 0, message_id: source.id, channel_id: source.channelId, ...(source.guildId && { guild_id: source.guildId }) };
  const body = {
    content: source.content,
    embeds: parseJson<TEmbed[]>(source.embeds, []),
    components: parseJson<TComponent[]>(source.components, []),
    flags: source.flags & COPIED_FLAGS,
    // A copy pings no one in the guilds it reaches.
    allowed_mentions: { parse: [] },
  };
  for (const follower of followers) {
    const target = follower.channel;
    if (!target || !DELIVERY_CHANNEL_TYPES.includes(target.type)) continue;
    try {
      await runChange({ db, actor: null }, (change) =>
        createMessage(change, {
          channel: target,
          guildId: follower.guildId,
          // The copy is the source's message: no application of the follow's maker is shown on it.
          author: { kind: "webhook", webhook: { id: follower.id, name: follower.name, avatar: follower.avatar, applicationId: null } },
          body,
          files,
          crosspostOf: reference,
        }),
      );
    } catch (error) {
      log(error);
    }
  }
}
