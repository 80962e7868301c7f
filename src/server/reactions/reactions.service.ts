import { GatewayDispatchEvents, PermissionFlagsBits as P, ReactionType } from "discord-api-types/v10";
import { Prisma } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { orderBySnowflake, snowflakeBeyond } from "~/server/db/snowflake-sql.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { readMemberFields } from "~/server/members/member-queries.ts";
import { reactDenial } from "~/server/messages/message-rules.ts";
import { loadMessageChannel, requirePermission } from "~/server/messages/message.service.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { readUserCards } from "~/server/users/user-queries.ts";
import { toUserObject, type UserObject } from "~/server/users/user.dto.ts";
import { parseReactionEmoji, reactionKey, type ReactionEmoji } from "./reaction-emoji.ts";
import { resolveCustomEmoji } from "./reaction-custom-emoji.ts";
import { REACTION_EMOJIS_MAX, type TListReactionsQuery } from "./reaction.schema.ts";

type ReactionInput = { channelId: string; messageId: string; emoji: string };

function emojiOf(param: string): ReactionEmoji {
  const emoji = parseReactionEmoji(param);
  if (!emoji) throw new ApiError("UNKNOWN_EMOJI");
  return emoji;
}

/** The channel and message a reaction route names: the channel viewed, the message in it (10008). */
async function loadReactionTarget(ctx: ServiceContext, input: { channelId: string; messageId: string }) {
  const target = await loadMessageChannel(ctx, input.channelId);
  const message = await ctx.db.message.findUnique({ where: { id: input.messageId }, select: { id: true, channelId: true, authorId: true, webhookId: true } });
  if (message?.channelId !== target.channel.id) throw new ApiError("UNKNOWN_MESSAGE");
  return { target, message };
}

/**
 * PUT .../reactions/{emoji}/@me: READ_MESSAGE_HISTORY, and ADD_REACTIONS when no one has
 * reacted with this emoji yet (joining a reaction needs only the history); at most 20
 * emojis a message (30010); a custom emoji must be one the caller can use (10014), and one of
 * another guild needs USE_EXTERNAL_EMOJIS. Reacting twice changes nothing.
 */
export async function addOwnReaction(ctx: ServiceContext, input: ReactionInput): Promise<void> {
  const emoji = emojiOf(input.emoji);
  const { target, message } = await loadReactionTarget(ctx, input);
  enforce(reactDenial(target, false));
  const { guildId } = target;
  const custom = emoji.kind === "custom" ? await resolveCustomEmoji(ctx, emoji.id) : null;
  // Another guild's emoji; the application's own emojis are its to use anywhere.
  if (custom?.guildId && custom.guildId !== guildId) requirePermission(target.permissions, P.UseExternalEmojis);
  const key = reactionKey(emoji);
  const userId = ctx.actor.userId;
  await runChange(ctx, async (change) => {
    const keys = await change.tx.reaction.findMany({ where: { messageId: message.id }, distinct: ["emojiKey"], select: { emojiKey: true } });
    const isNew = !keys.some((row) => row.emojiKey === key);
    if (isNew) {
      enforce(reactDenial(target, true));
      if (keys.length >= REACTION_EMOJIS_MAX) throw new ApiError("MAX_REACTIONS");
    }
    const name = custom?.name ?? emoji.name;
    const animated = custom?.animated ?? false;
    const added = await change.sql.run(
      Prisma.sql`INSERT INTO "Reaction" ("messageId", "emojiKey", "emojiId", "emojiName", "animated", "userId", "createdAt")
        VALUES (${message.id}, ${key}, ${custom?.id ?? null}, ${name}, ${animated}, ${userId}, ${new Date()}) ON CONFLICT DO NOTHING`,
    );
    if (added === 0) return;
    const [members, users] = await Promise.all([readMemberFields(change.sql, guildId, [userId]), readUserCards(change.sql, [userId])]);
    const member = members.get(userId);
    const user = users.get(userId);
    await change.emit(GatewayDispatchEvents.MessageReactionAdd, {
      user_id: userId,
      channel_id: target.channel.id,
      message_id: message.id,
      ...(guildId && { guild_id: guildId }),
      ...(member && user && { member: { ...member, user: toUserObject(user) } }),
      emoji: custom ? { id: custom.id, name: custom.name, animated: custom.animated } : { id: null, name: emoji.name },
      ...((message.authorId ?? message.webhookId) && { message_author_id: (message.authorId ?? message.webhookId)! }),
      burst: false,
      burst_colors: [],
      type: ReactionType.Normal,
    });
  });
}

/** Takes one user's reaction away; Message Reaction Remove when there was one. */
async function removeReaction(ctx: ServiceContext, input: ReactionInput & { userId: string }, others: boolean): Promise<void> {
  const emoji = emojiOf(input.emoji);
  const { target, message } = await loadReactionTarget(ctx, input);
  if (others) requirePermission(target.permissions, P.ManageMessages);
  const key = reactionKey(emoji);
  await runChange(ctx, async (change) => {
    const gone = await change.tx.reaction.findUnique({ where: { messageId_emojiKey_userId: { messageId: message.id, emojiKey: key, userId: input.userId } } });
    if (!gone) return;
    await change.tx.reaction.delete({ where: { messageId_emojiKey_userId: { messageId: message.id, emojiKey: key, userId: input.userId } } });
    await change.emit(GatewayDispatchEvents.MessageReactionRemove, {
      user_id: input.userId,
      channel_id: target.channel.id,
      message_id: message.id,
      ...(target.guildId && { guild_id: target.guildId }),
      emoji: gone.emojiId ? { id: gone.emojiId, name: gone.emojiName, animated: gone.animated } : { id: null, name: gone.emojiName },
      burst: false,
      type: ReactionType.Normal,
    });
  });
}

/** DELETE .../reactions/{emoji}/@me: the caller's own, whoever may view the channel. */
export function removeOwnReaction(ctx: ServiceContext, input: ReactionInput): Promise<void> {
  return removeReaction(ctx, { ...input, userId: ctx.actor.userId }, false);
}

/** DELETE .../reactions/{emoji}/{user.id}: another user's, with MANAGE_MESSAGES (the caller's own without). */
export function removeUserReaction(ctx: ServiceContext, input: ReactionInput & { userId: string }): Promise<void> {
  return removeReaction(ctx, input, input.userId !== ctx.actor.userId);
}

/** DELETE .../reactions: every reaction, MANAGE_MESSAGES; Message Reaction Remove All when there were any. */
export async function removeAllReactions(ctx: ServiceContext, input: { channelId: string; messageId: string }): Promise<void> {
  const { target, message } = await loadReactionTarget(ctx, input);
  requirePermission(target.permissions, P.ManageMessages);
  await runChange(ctx, async (change) => {
    const { count } = await change.tx.reaction.deleteMany({ where: { messageId: message.id } });
    if (count === 0) return;
    await change.emit(GatewayDispatchEvents.MessageReactionRemoveAll, {
      channel_id: target.channel.id,
      message_id: message.id,
      ...(target.guildId && { guild_id: target.guildId }),
    });
  });
}

/** DELETE .../reactions/{emoji}: every reaction with one emoji, MANAGE_MESSAGES; Message Reaction Remove Emoji when there were any. */
export async function removeEmojiReactions(ctx: ServiceContext, input: ReactionInput): Promise<void> {
  const emoji = emojiOf(input.emoji);
  const { target, message } = await loadReactionTarget(ctx, input);
  requirePermission(target.permissions, P.ManageMessages);
  const key = reactionKey(emoji);
  await runChange(ctx, async (change) => {
    const first = await change.tx.reaction.findFirst({ where: { messageId: message.id, emojiKey: key }, orderBy: { createdAt: "asc" } });
    if (!first) return;
    await change.tx.reaction.deleteMany({ where: { messageId: message.id, emojiKey: key } });
    await change.emit(GatewayDispatchEvents.MessageReactionRemoveEmoji, {
      channel_id: target.channel.id,
      message_id: message.id,
      ...(target.guildId && { guild_id: target.guildId }),
      emoji: first.emojiId ? { id: first.emojiId, name: first.emojiName, animated: first.animated } : { id: null, name: first.emojiName },
    });
  });
}

/**
 * GET .../reactions/{emoji}: the users who reacted with it, by id, after `after`, limit 1-100
 * (25); READ_MESSAGE_HISTORY. Super reactions (type 1) are not stored: none have been made.
 */
export async function listReactionUsers(ctx: ServiceContext, input: ReactionInput & { query: TListReactionsQuery }): Promise<UserObject[]> {
  const emoji = emojiOf(input.emoji);
  const { target, message } = await loadReactionTarget(ctx, input);
  if (!target.readable || !hasPermission(target.permissions, P.ReadMessageHistory)) throw new ApiError("MISSING_PERMISSIONS");
  if (input.query.type === ReactionType.Burst) return [];
  const column = Prisma.sql`"userId"`;
  const after = input.query.after ? Prisma.sql`AND ${snowflakeBeyond(column, ">", input.query.after)}` : Prisma.empty;
  const rows = await ctx.db.$queryRaw<
    { userId: string }[]
  >`SELECT "userId" FROM "Reaction" WHERE "messageId" = ${message.id} AND "emojiKey" = ${reactionKey(emoji)} ${after} ${orderBySnowflake(column)} LIMIT ${input.query.limit ?? 25}`;
  const ids = rows.map((row) => row.userId);
  const users = await ctx.db.user.findMany({ where: { id: { in: ids } } });
  const byId = new Map(users.map((user) => [user.id, toUserObject(user)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
