import { GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { runChange } from "~/server/events/change.ts";
import { readMemberFields } from "~/server/members/member-queries.ts";
import { readUserCards } from "~/server/users/user-queries.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import { dmDenialFor } from "~/server/dms/dm.service.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { loadMessageChannel, requirePermission } from "./message.service.ts";

/**
 * POST /channels/{channel.id}/typing: whoever may send a message there (VIEW_CHANNEL and
 * SEND_MESSAGES, SEND_MESSAGES_IN_THREADS in a thread) shows as typing. Nothing is stored
 * but the event: TYPING_START, to sessions with GUILD_MESSAGE_TYPING that see the channel,
 * with the typist's member. Clients show it for about ten seconds.
 */
export async function triggerTyping(ctx: ServiceContext, input: { channelId: string }): Promise<void> {
  const { guildId, dmWith, channel, permissions, thread } = await loadMessageChannel(ctx, input.channelId);
  requirePermission(permissions, thread ? P.SendMessagesInThreads : P.SendMessages);
  if (dmWith) enforce(await dmDenialFor(ctx.db, ctx.actor.userId, dmWith));
  const userId = ctx.actor.userId;
  await runChange(ctx, async (change) => {
    const [members, users] = await Promise.all([readMemberFields(change.sql, guildId, [userId]), readUserCards(change.sql, [userId])]);
    const member = members.get(userId);
    const user = users.get(userId);
    await change.emit(GatewayDispatchEvents.TypingStart, {
      channel_id: channel.id,
      ...(guildId && { guild_id: guildId }),
      user_id: userId,
      timestamp: Math.floor(Date.now() / 1000),
      ...(member && user && { member: { ...member, user: toUserObject(user) } }),
    });
  });
}
