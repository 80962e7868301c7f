import { GatewayDispatchEvents as E } from "discord-api-types/v10";

// Which of the dashboard's reads (tRPC routers) an event may change. Pages refetch what they
// show through their own reads, so a page stays exactly as correct as its queries; only the
// queries a page has mounted are refetched.

/** Every read: the event may change what the viewer may see at all (roles, overwrites, the guild). */
export const EVERY_READ = "*";

const MESSAGES = ["message", "audit"];

const READS_OF: Partial<Record<string, readonly string[]>> = {
  [E.GuildMemberAdd]: ["member", "guild", "role", "audit"],
  [E.GuildMemberUpdate]: ["member", "guild", "role", "audit"],
  [E.GuildMemberRemove]: ["member", "guild", "role", "audit"],
  [E.GuildBanAdd]: ["member", "audit"],
  [E.GuildBanRemove]: ["member", "audit"],
  [E.GuildIntegrationsUpdate]: ["integration", "command", "role", "audit"],
  [E.IntegrationCreate]: ["integration", "command", "role", "audit"],
  [E.IntegrationDelete]: ["integration", "command", "role", "audit"],
  [E.InviteCreate]: ["invite", "audit"],
  [E.InviteDelete]: ["invite", "audit"],
  [E.ThreadCreate]: ["thread", "channel", "audit"],
  [E.ThreadUpdate]: ["thread", "channel", "audit"],
  [E.ThreadDelete]: ["thread", "channel", "audit"],
  [E.ThreadMembersUpdate]: ["thread"],
  [E.WebhooksUpdate]: ["webhook", "audit"],
  [E.VoiceStateUpdate]: ["voiceStatus", "member"],
  [E.VoiceChannelStatusUpdate]: ["voiceStatus", "channel"],
  [E.GuildScheduledEventCreate]: ["audit"],
  [E.GuildAuditLogEntryCreate]: ["audit"],
  [E.GuildEmojisUpdate]: ["emoji", "guild", "audit"],
  [E.GuildStickersUpdate]: ["sticker", "guild", "audit"],
  [E.MessageCreate]: MESSAGES,
  [E.MessageUpdate]: MESSAGES,
  [E.MessageDelete]: MESSAGES,
  [E.MessageDeleteBulk]: MESSAGES,
  [E.ChannelPinsUpdate]: MESSAGES,
  [E.MessageReactionAdd]: ["message"],
  [E.MessageReactionRemove]: ["message"],
  [E.MessageReactionRemoveAll]: ["message"],
  [E.MessageReactionRemoveEmoji]: ["message"],
};

/** The routers whose queries to refetch for a guild notice; EVERY_READ for events that may change the viewer's access. */
export function readsChangedBy(notice: { type: string; self?: boolean; gone?: boolean }): readonly string[] {
  if (notice.self || notice.gone) return [EVERY_READ];
  return READS_OF[notice.type] ?? [EVERY_READ];
}
