import type { GatewayMessageCreateDispatchData } from "discord-api-types/v10";
import type { Statements } from "~/server/db/statements.ts";
import { readMemberFields } from "~/server/members/member-queries.ts";
import type { MessageObject } from "./message.dto.ts";

/**
 * MESSAGE_CREATE and MESSAGE_UPDATE as the gateway sends them: in a guild, the message names
 * its guild, carries its author's member (without the user) unless a webhook sent it, and each
 * mentioned user who is a member carries theirs. The thread a message started is left to the
 * thread's own events (THREAD_CREATE), which carry it.
 */
export async function messageEventData(sql: Statements, object: MessageObject, guildId: string | null): Promise<GatewayMessageCreateDispatchData> {
  const { thread: _thread, ...message } = object;
  if (!guildId) return message;
  // A webhook's author is no member: with no one mentioned there is no member to read.
  const userIds = [...new Set([...(message.webhook_id ? [] : [message.author.id]), ...message.mentions.map((user) => user.id)])];
  const members = await readMemberFields(sql, guildId, userIds);
  const member = message.webhook_id ? undefined : members.get(message.author.id);
  return {
    ...message,
    guild_id: guildId,
    ...(member && { member }),
    mentions: message.mentions.map((user) => {
      const mentioned = members.get(user.id);
      return mentioned ? { ...user, member: mentioned } : user;
    }),
  };
}
