// The platform's intent-to-event table ("Gateway Intents"): which IDENTIFY intent bits a
// session must send to receive each dispatch event. Pure.
import { GatewayDispatchEvents as E, GatewayIntentBits as I } from "discord-api-types/v10";

/**
 * Events of guilds and their channels, each with the intents that give it (any one of them
 * suffices). DM-only intents are listed beside the guild ones where an event belongs to both;
 * a guild event reaches a session through the guild intent alone (see `intentsFor`).
 */
const EVENT_INTENTS: Readonly<Partial<Record<E, number>>> = {
  [E.GuildCreate]: I.Guilds,
  [E.GuildUpdate]: I.Guilds,
  [E.GuildDelete]: I.Guilds,
  [E.GuildRoleCreate]: I.Guilds,
  [E.GuildRoleUpdate]: I.Guilds,
  [E.GuildRoleDelete]: I.Guilds,
  [E.ChannelCreate]: I.Guilds,
  [E.ChannelUpdate]: I.Guilds,
  [E.ChannelDelete]: I.Guilds,
  [E.ChannelPinsUpdate]: I.Guilds,
  [E.ThreadCreate]: I.Guilds,
  [E.ThreadUpdate]: I.Guilds,
  [E.ThreadDelete]: I.Guilds,
  [E.ThreadListSync]: I.Guilds,
  [E.ThreadMemberUpdate]: I.Guilds,
  // Belongs to two intents: GUILDS alone gives only the bot's own joins and leaves (`receives`).
  [E.ThreadMembersUpdate]: I.Guilds | I.GuildMembers,
  [E.StageInstanceCreate]: I.Guilds,
  [E.StageInstanceUpdate]: I.Guilds,
  [E.StageInstanceDelete]: I.Guilds,
  // Not in the platform's published table; a channel's own state, so with the channel events.
  [E.VoiceChannelStatusUpdate]: I.Guilds,
  [E.VoiceChannelStartTimeUpdate]: I.Guilds,
  [E.GuildMemberAdd]: I.GuildMembers,
  [E.GuildMemberUpdate]: I.GuildMembers,
  [E.GuildMemberRemove]: I.GuildMembers,
  [E.GuildAuditLogEntryCreate]: I.GuildModeration,
  [E.GuildBanAdd]: I.GuildModeration,
  [E.GuildBanRemove]: I.GuildModeration,
  [E.GuildEmojisUpdate]: I.GuildExpressions,
  [E.GuildStickersUpdate]: I.GuildExpressions,
  [E.GuildSoundboardSoundCreate]: I.GuildExpressions,
  [E.GuildSoundboardSoundUpdate]: I.GuildExpressions,
  [E.GuildSoundboardSoundDelete]: I.GuildExpressions,
  [E.GuildSoundboardSoundsUpdate]: I.GuildExpressions,
  [E.GuildIntegrationsUpdate]: I.GuildIntegrations,
  [E.IntegrationCreate]: I.GuildIntegrations,
  [E.IntegrationUpdate]: I.GuildIntegrations,
  [E.IntegrationDelete]: I.GuildIntegrations,
  [E.WebhooksUpdate]: I.GuildWebhooks,
  [E.InviteCreate]: I.GuildInvites,
  [E.InviteDelete]: I.GuildInvites,
  [E.VoiceChannelEffectSend]: I.GuildVoiceStates,
  [E.VoiceStateUpdate]: I.GuildVoiceStates,
  [E.PresenceUpdate]: I.GuildPresences,
  [E.MessageCreate]: I.GuildMessages,
  [E.MessageUpdate]: I.GuildMessages,
  [E.MessageDelete]: I.GuildMessages,
  [E.MessageDeleteBulk]: I.GuildMessages,
  [E.MessageReactionAdd]: I.GuildMessageReactions,
  [E.MessageReactionRemove]: I.GuildMessageReactions,
  [E.MessageReactionRemoveAll]: I.GuildMessageReactions,
  [E.MessageReactionRemoveEmoji]: I.GuildMessageReactions,
  [E.TypingStart]: I.GuildMessageTyping,
  [E.GuildScheduledEventCreate]: I.GuildScheduledEvents,
  [E.GuildScheduledEventUpdate]: I.GuildScheduledEvents,
  [E.GuildScheduledEventDelete]: I.GuildScheduledEvents,
  [E.GuildScheduledEventUserAdd]: I.GuildScheduledEvents,
  [E.GuildScheduledEventUserRemove]: I.GuildScheduledEvents,
  [E.AutoModerationRuleCreate]: I.AutoModerationConfiguration,
  [E.AutoModerationRuleUpdate]: I.AutoModerationConfiguration,
  [E.AutoModerationRuleDelete]: I.AutoModerationConfiguration,
  [E.AutoModerationActionExecution]: I.AutoModerationExecution,
  [E.MessagePollVoteAdd]: I.GuildMessagePolls,
  [E.MessagePollVoteRemove]: I.GuildMessagePolls,
};

/** Events of DM channels and the intent each needs there (the platform's DIRECT_* intents). */
const DIRECT_EVENT_INTENTS: Readonly<Partial<Record<E, number>>> = {
  [E.MessageCreate]: I.DirectMessages,
  [E.MessageUpdate]: I.DirectMessages,
  [E.MessageDelete]: I.DirectMessages,
  [E.ChannelPinsUpdate]: I.DirectMessages,
  [E.MessageReactionAdd]: I.DirectMessageReactions,
  [E.MessageReactionRemove]: I.DirectMessageReactions,
  [E.MessageReactionRemoveAll]: I.DirectMessageReactions,
  [E.MessageReactionRemoveEmoji]: I.DirectMessageReactions,
  [E.TypingStart]: I.DirectMessageTyping,
  [E.MessagePollVoteAdd]: I.DirectMessagePolls,
  [E.MessagePollVoteRemove]: I.DirectMessagePolls,
};

/** The intent a DM channel's event needs; null for an event that does not happen in DMs. */
export function directIntentFor(type: E): number | null {
  return DIRECT_EVENT_INTENTS[type] ?? null;
}

const DISPATCH_EVENTS: ReadonlySet<string> = new Set(Object.values(E));

/** Whether `type` is one of the platform's dispatch events (lobby, internal and test events are not). */
export function isDispatchEvent(type: string): type is E {
  return DISPATCH_EVENTS.has(type);
}

/**
 * The intent bits that give a guild event (any one suffices); 0 for a passthrough event,
 * which the platform sends whatever the intents ("Any events not defined in an intent").
 */
export function intentsFor(type: E): number {
  return EVENT_INTENTS[type] ?? 0;
}

/** Whether a session that identified with `intents` asks for this guild event. */
export function asksFor(type: E, intents: number): boolean {
  const wanted = intentsFor(type);
  return wanted === 0 || (wanted & intents) !== 0;
}

/** Whether the session's IDENTIFY intents include every bit of `bit`. */
export function hasIntent(intents: number, bit: number): boolean {
  return (intents & bit) === bit;
}
