// Direct messages between two users: one channel a pair, readable by its two recipients only.
import { ChannelType } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { isUniqueViolation } from "~/server/db/prisma-errors.ts";
import { ApiError } from "~/server/errors.ts";
import { InternalEvents } from "~/server/events/event-map.ts";
import { runChange } from "~/server/events/change.ts";
import type { Denial } from "~/server/permissions/denial.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import { dmKeyOf, toDmChannelObject, type DmChannelObject } from "./dm-channel.dto.ts";
import { dmDenial } from "./dm-rules.ts";
import type { TCreateDmBody } from "./dm.schema.ts";

/** A DM channel its reader is a recipient of. */
export type DmTarget = { channel: { id: string; type: number; lastMessageId: string | null; flags: number }; otherUserId: string };

/** GET /channels/{id} and DELETE /channels/{id} of a DM: the channel (closing a DM keeps it and its messages, as on the platform). */
export async function readDmChannel(db: Db, target: DmTarget): Promise<DmChannelObject> {
  const [other, lastPin] = await Promise.all([
    db.user.findUnique({ where: { id: target.otherUserId } }),
    db.message.findFirst({ where: { channelId: target.channel.id, pinnedAt: { not: null } }, orderBy: { pinnedAt: "desc" }, select: { pinnedAt: true } }),
  ]);
  if (!other) throw new ApiError("UNKNOWN_CHANNEL");
  return toDmChannelObject(target.channel, toUserObject(other), lastPin?.pinnedAt ?? null);
}

/**
 * The DM channel `channelId` if it is one: null for any other channel, 10003 for a DM the
 * caller is not a recipient of (as if it were not there).
 */
export async function loadDmTarget(ctx: ServiceContext, channelId: string): Promise<DmTarget | null> {
  const recipients = await stateCache(ctx.db).dmRecipientsOf(channelId);
  if (!recipients) return null;
  if (!recipients.includes(ctx.actor.userId)) throw new ApiError("UNKNOWN_CHANNEL");
  const channel = await ctx.db.channel.findUnique({ where: { id: channelId }, select: { id: true, type: true, lastMessageId: true, flags: true } });
  if (!channel) throw new ApiError("UNKNOWN_CHANNEL");
  return { channel, otherUserId: recipients.find((id) => id !== ctx.actor.userId)! };
}

/** Whether `senderId` may message `recipientId` now (dm-rules.ts): the users, and the guilds they share. */
export async function dmDenialFor(db: Db, senderId: string, recipientId: string): Promise<Denial | null> {
  const [users, shared] = await Promise.all([
    db.user.findMany({ where: { id: { in: [senderId, recipientId] } }, select: { id: true, bot: true } }),
    db.member.findMany({
      where: { userId: recipientId, guild: { members: { some: { userId: senderId } } } },
      select: { allowDms: true, guild: { select: { dmsDisabledUntil: true } } },
    }),
  ]);
  const sender = users.find((user) => user.id === senderId);
  const recipient = users.find((user) => user.id === recipientId);
  if (!sender || !recipient) return { error: "CANNOT_MESSAGE_USER", reason: "This user no longer exists." };
  const sharedGuilds = shared.map((row) => ({ recipientAllowsDms: row.allowDms, dmsPausedUntil: row.guild.dmsDisabledUntil }));
  return dmDenial({ sender, recipient, sharedGuilds }, new Date());
}

async function findDm(db: Db, key: string): Promise<{ id: string; type: number; lastMessageId: string | null; flags: number } | null> {
  return db.channel.findUnique({ where: { dmKey: key }, select: { id: true, type: true, lastMessageId: true, flags: true } });
}

/**
 * POST /users/@me/channels: the DM channel with `recipient_id`, made on first use and the same
 * one after (10013 for no such user). Opening one needs no shared guild; sending in it does
 * (sendMessage answers 50007 then), as on the platform.
 */
export async function openDm(ctx: ServiceContext, body: TCreateDmBody): Promise<DmChannelObject> {
  const userId = ctx.actor.userId;
  const recipient = await ctx.db.user.findUnique({ where: { id: body.recipient_id }, select: { id: true } });
  if (!recipient) throw new ApiError("UNKNOWN_USER");
  if (recipient.id === userId) throw new ApiError("CANNOT_MESSAGE_USER");
  const key = dmKeyOf(userId, recipient.id);
  let channel = await findDm(ctx.db, key);
  if (!channel) {
    try {
      channel = await runChange(ctx, async (change) => {
        const id = newId();
        const row = await change.tx.channel.create({
          data: { id, type: ChannelType.DM, name: "", dmKey: key, recipients: { create: [{ userId }, { userId: recipient.id }] } },
          select: { id: true, type: true, lastMessageId: true, flags: true },
        });
        // Bots hear of no new DM channel (the platform stopped sending them CHANNEL_CREATE for DMs).
        await change.emit(InternalEvents.DmChannelOpened, { channel_id: id });
        return row;
      });
    } catch (error) {
      // Both of a pair opened it at once: the other's stands.
      if (!isUniqueViolation(error)) throw error;
      channel = await findDm(ctx.db, key);
      if (!channel) throw error;
    }
  }
  return readDmChannel(ctx.db, { channel, otherUserId: recipient.id });
}

/** The caller's DM channels, most recently active first (the dashboard's list). */
export async function listOwnDms(ctx: ServiceContext): Promise<DmChannelObject[]> {
  const rows = await ctx.db.channelRecipient.findMany({
    where: { userId: ctx.actor.userId },
    select: { channel: { select: { id: true, type: true, lastMessageId: true, flags: true, recipients: { select: { userId: true } } } } },
  });
  const targets = rows.map(({ channel: { recipients, ...channel } }) => ({
    channel,
    otherUserId: recipients.find((r) => r.userId !== ctx.actor.userId)!.userId,
  }));
  const activity = (t: DmTarget) => BigInt(t.channel.lastMessageId ?? t.channel.id);
  targets.sort((a, b) => (activity(b) > activity(a) ? 1 : activity(b) < activity(a) ? -1 : 0));
  return Promise.all(targets.map((target) => readDmChannel(ctx.db, target)));
}
