import { AuditLogEvent, GatewayDispatchEvents } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { readUserCards } from "~/server/users/user-queries.ts";
import { createMessage } from "./message-create.service.ts";
import { messageEventData } from "./message-event.ts";
import { MESSAGE_INCLUDE, toMessageObjects, type MessageObject } from "./message.dto.ts";
import { PINS_MAX, type TListPinsQuery } from "./message.schema.ts";
import { pinDenial } from "./message-rules.ts";
import { loadMessageChannel, readMessages } from "./message.service.ts";

type PinTarget = Awaited<ReturnType<typeof loadMessageChannel>>;

/** The message to pin or unpin, in a channel whose history the caller reads, with PIN_MESSAGES there. */
async function loadPinTarget(ctx: ServiceContext, input: { channelId: string; messageId: string }) {
  const target = await loadMessageChannel(ctx, input.channelId);
  enforce(pinDenial(target));
  const message = await ctx.db.message.findUnique({ where: { id: input.messageId }, select: { id: true, channelId: true, authorId: true, webhookId: true } });
  if (message?.channelId !== target.channel.id) throw new ApiError("UNKNOWN_MESSAGE");
  return { target, message };
}

/** The message's new pin state, announced: Message Update, Channel Pins Update with the channel's latest pin, and the audit entry. */
async function announcePin(change: Change, target: PinTarget, message: { id: string; authorId: string | null; webhookId: string | null }, pinned: boolean) {
  const { guildId } = target;
  const channelId = target.channel.id;
  const row = await change.tx.message.findUniqueOrThrow({ where: { id: message.id }, include: MESSAGE_INCLUDE });
  const [object] = await toMessageObjects(change.tx, [row]);
  await change.emit(GatewayDispatchEvents.MessageUpdate, await messageEventData(change.sql, object!, guildId));
  const latest = await change.tx.message.findFirst({ where: { channelId, pinned: true }, orderBy: { pinnedAt: "desc" }, select: { pinnedAt: true } });
  await change.emit(GatewayDispatchEvents.ChannelPinsUpdate, {
    ...(guildId && { guild_id: guildId }),
    channel_id: channelId,
    last_pin_timestamp: latest?.pinnedAt?.toISOString() ?? null,
  });
  if (!guildId) return;
  await change.audit({
    guildId,
    actionType: pinned ? AuditLogEvent.MessagePin : AuditLogEvent.MessageUnpin,
    targetId: message.authorId ?? message.webhookId,
    options: { channel_id: channelId, message_id: message.id },
  });
}

/**
 * PUT /channels/{channel.id}/messages/pins/{message.id} (and the older /pins/{message.id}):
 * PIN_MESSAGES; at most 50 pins a channel (30003); pinning a pinned message changes nothing.
 * The platform's system message says who pinned it (CHANNEL_PINNED_MESSAGE).
 */
export async function pinMessage(ctx: ServiceContext, input: { channelId: string; messageId: string }): Promise<void> {
  const { target, message } = await loadPinTarget(ctx, input);
  await runChange(ctx, async (change) => {
    const pinnedNow = await change.tx.message.updateMany({ where: { id: message.id, pinned: false }, data: { pinned: true, pinnedAt: new Date() } });
    if (pinnedNow.count === 0) return;
    // Counted inside the change, so two pins cannot both take the last place.
    if ((await change.tx.message.count({ where: { channelId: target.channel.id, pinned: true } })) > PINS_MAX) throw new ApiError("MAX_PINS");
    await announcePin(change, target, message, true);
    const user = (await readUserCards(change.sql, [ctx.actor.userId])).get(ctx.actor.userId);
    if (!user) throw new ApiError("UNKNOWN_USER");
    await createMessage(change, {
      channel: target.channel,
      guildId: target.guildId,
      author: { kind: "user", user, applicationId: ctx.actor.kind === "bot" ? ctx.actor.applicationId : null },
      body: {},
      pinOf: { type: 0, message_id: message.id, channel_id: target.channel.id, ...(target.guildId && { guild_id: target.guildId }) },
    });
  });
}

/** DELETE /channels/{channel.id}/messages/pins/{message.id} (and /pins/{message.id}): PIN_MESSAGES; unpinning what is not pinned changes nothing. */
export async function unpinMessage(ctx: ServiceContext, input: { channelId: string; messageId: string }): Promise<void> {
  const { target, message } = await loadPinTarget(ctx, input);
  await runChange(ctx, async (change) => {
    const unpinned = await change.tx.message.updateMany({ where: { id: message.id, pinned: true }, data: { pinned: false, pinnedAt: null } });
    if (unpinned.count > 0) await announcePin(change, target, message, false);
  });
}

/** The channel's pins the caller may read, newest pin first; none without READ_MESSAGE_HISTORY, as a message list. */
async function readPins(ctx: ServiceContext, channelId: string, options: { before?: Date; take: number }) {
  const { readable, channel } = await loadMessageChannel(ctx, channelId);
  if (!readable) return [];
  const rows = await ctx.db.message.findMany({
    where: { channelId: channel.id, pinned: true, ...(options.before && { pinnedAt: { lt: options.before } }) },
    orderBy: [{ pinnedAt: "desc" }, { id: "desc" }],
    take: options.take,
    include: MESSAGE_INCLUDE,
  });
  const objects = await readMessages(ctx, rows);
  return objects.map((message, i) => ({ pinned_at: rows[i]!.pinnedAt!.toISOString(), message }));
}

/** GET /channels/{channel.id}/messages/pins: `{ items: [{ pinned_at, message }], has_more }`, before a pin time, limit 1-50. */
export async function listPins(ctx: ServiceContext, input: { channelId: string; query: TListPinsQuery }) {
  const limit = input.query.limit ?? PINS_MAX;
  const items = await readPins(ctx, input.channelId, { before: input.query.before ? new Date(input.query.before) : undefined, take: limit + 1 });
  return { items: items.slice(0, limit), has_more: items.length > limit };
}

/** GET /channels/{channel.id}/pins: the older form client libraries still call, every pin's message. */
export async function listPinnedMessages(ctx: ServiceContext, input: { channelId: string }): Promise<MessageObject[]> {
  return (await readPins(ctx, input.channelId, { take: PINS_MAX })).map((item) => item.message);
}
