import { GatewayDispatchEvents as E, GatewayIntentBits as I } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { asksFor, intentsFor, isDispatchEvent } from "./intents.ts";

// The platform's table ("Gateway Intents"), event by event.
const TABLE: [E, number][] = [
  [E.GuildCreate, I.Guilds],
  [E.GuildUpdate, I.Guilds],
  [E.GuildDelete, I.Guilds],
  [E.GuildRoleCreate, I.Guilds],
  [E.GuildRoleUpdate, I.Guilds],
  [E.GuildRoleDelete, I.Guilds],
  [E.ChannelCreate, I.Guilds],
  [E.ChannelUpdate, I.Guilds],
  [E.ChannelDelete, I.Guilds],
  [E.ChannelPinsUpdate, I.Guilds],
  [E.ThreadCreate, I.Guilds],
  [E.ThreadUpdate, I.Guilds],
  [E.ThreadDelete, I.Guilds],
  [E.ThreadListSync, I.Guilds],
  [E.ThreadMemberUpdate, I.Guilds],
  [E.ThreadMembersUpdate, I.Guilds | I.GuildMembers],
  [E.StageInstanceCreate, I.Guilds],
  [E.StageInstanceUpdate, I.Guilds],
  [E.StageInstanceDelete, I.Guilds],
  [E.VoiceChannelStatusUpdate, I.Guilds],
  [E.GuildMemberAdd, I.GuildMembers],
  [E.GuildMemberUpdate, I.GuildMembers],
  [E.GuildMemberRemove, I.GuildMembers],
  [E.GuildAuditLogEntryCreate, I.GuildModeration],
  [E.GuildBanAdd, I.GuildModeration],
  [E.GuildBanRemove, I.GuildModeration],
  [E.GuildEmojisUpdate, I.GuildExpressions],
  [E.GuildStickersUpdate, I.GuildExpressions],
  [E.GuildSoundboardSoundCreate, I.GuildExpressions],
  [E.GuildSoundboardSoundUpdate, I.GuildExpressions],
  [E.GuildSoundboardSoundDelete, I.GuildExpressions],
  [E.GuildSoundboardSoundsUpdate, I.GuildExpressions],
  [E.GuildIntegrationsUpdate, I.GuildIntegrations],
  [E.IntegrationCreate, I.GuildIntegrations],
  [E.IntegrationUpdate, I.GuildIntegrations],
  [E.IntegrationDelete, I.GuildIntegrations],
  [E.WebhooksUpdate, I.GuildWebhooks],
  [E.InviteCreate, I.GuildInvites],
  [E.InviteDelete, I.GuildInvites],
  [E.VoiceChannelEffectSend, I.GuildVoiceStates],
  [E.VoiceStateUpdate, I.GuildVoiceStates],
  [E.PresenceUpdate, I.GuildPresences],
  [E.MessageCreate, I.GuildMessages],
  [E.MessageUpdate, I.GuildMessages],
  [E.MessageDelete, I.GuildMessages],
  [E.MessageDeleteBulk, I.GuildMessages],
  [E.MessageReactionAdd, I.GuildMessageReactions],
  [E.MessageReactionRemove, I.GuildMessageReactions],
  [E.MessageReactionRemoveAll, I.GuildMessageReactions],
  [E.MessageReactionRemoveEmoji, I.GuildMessageReactions],
  [E.TypingStart, I.GuildMessageTyping],
  [E.GuildScheduledEventCreate, I.GuildScheduledEvents],
  [E.GuildScheduledEventUpdate, I.GuildScheduledEvents],
  [E.GuildScheduledEventDelete, I.GuildScheduledEvents],
  [E.GuildScheduledEventUserAdd, I.GuildScheduledEvents],
  [E.GuildScheduledEventUserRemove, I.GuildScheduledEvents],
  [E.AutoModerationRuleCreate, I.AutoModerationConfiguration],
  [E.AutoModerationRuleUpdate, I.AutoModerationConfiguration],
  [E.AutoModerationRuleDelete, I.AutoModerationConfiguration],
  [E.AutoModerationActionExecution, I.AutoModerationExecution],
  [E.MessagePollVoteAdd, I.GuildMessagePolls],
  [E.MessagePollVoteRemove, I.GuildMessagePolls],
];

describe("intents table", () => {
  it.each(TABLE)("%s needs %i", (type, bits) => {
    expect(intentsFor(type)).toBe(bits);
    expect(asksFor(type, bits)).toBe(true);
    expect(asksFor(type, ~bits & 0x3ffffff)).toBe(false);
  });

  it("passes through events no intent names", () => {
    for (const type of [E.InteractionCreate, E.UserUpdate, E.ApplicationCommandPermissionsUpdate, E.EntitlementCreate, E.VoiceServerUpdate]) {
      expect(intentsFor(type)).toBe(0);
      expect(asksFor(type, 0)).toBe(true);
    }
  });

  it("gives THREAD_MEMBERS_UPDATE to either of its two intents", () => {
    expect(asksFor(E.ThreadMembersUpdate, I.Guilds)).toBe(true);
    expect(asksFor(E.ThreadMembersUpdate, I.GuildMembers)).toBe(true);
    expect(asksFor(E.ThreadMembersUpdate, I.GuildMessages)).toBe(false);
  });

  it("knows lobby, internal and test events are not the platform's dispatch events", () => {
    expect(isDispatchEvent(E.MessageCreate)).toBe(true);
    for (const type of ["TOKENS_REVOKED", "APPLICATION_UPDATED", "LOBBY_UPDATE", "LOBBY_MESSAGE_CREATE", "TEST_SETUP"])
      expect(isDispatchEvent(type)).toBe(false);
  });
});
