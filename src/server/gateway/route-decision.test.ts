import { GatewayDispatchEvents as E, GatewayIntentBits as I, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "~/server/events/event-map.ts";
import type { GatewaySessionView } from "./gateway-types.ts";
import { isOnShard, needsFacts, receives, shardOf } from "./route-decision.ts";
import { toRoutedEvent } from "./routed-event.ts";

const GUILD = "1300000000000000000";
const BOT = "900";
const OTHER = "800";
const user = (id: string) => ({ id, username: `u${id}`, discriminator: "0", global_name: null, avatar: null });

function session(fields: Partial<GatewaySessionView> = {}): GatewaySessionView {
  return {
    sessionId: "s",
    applicationId: "901",
    botUserId: BOT,
    intents: I.Guilds | I.GuildMembers | I.GuildModeration | I.GuildMessages,
    shard: [0, 1],
    messageContent: false,
    largeThreshold: 50,
    guildIds: new Set([GUILD]),
    ...fields,
  };
}

/** An outbox event as a test writes it by hand: any type, any payload. */
function stored(event: { seq: number; type: string; guildId: string | null; data: object; createdAt: string }): StoredEvent {
  return event as StoredEvent;
}

function event(type: string, data: object, guildId: string | null = GUILD) {
  const routed = toRoutedEvent(stored({ seq: 1, type, guildId, data, createdAt: "2026-01-01T00:00:00.000Z" }));
  if (!routed) throw new Error(`${type} is not routed`);
  return routed;
}

const SEES = { canViewChannel: true, canViewAuditLog: true };
const BLIND = { canViewChannel: false, canViewAuditLog: true };
const message = (fields: object = {}) =>
  event(E.MessageCreate, { id: "5", channel_id: "6", guild_id: GUILD, author: user(OTHER), content: "hi", mentions: [], ...fields });

describe("shards", () => {
  it("puts a guild on (id >> 22) % num_shards", () => {
    expect(shardOf(GUILD, 1)).toBe(0);
    expect(shardOf(GUILD, 7)).toBe(Number((BigInt(GUILD) >> 22n) % 7n));
    expect(shardOf(String(5n << 22n), 4)).toBe(1);
    expect(isOnShard(String(5n << 22n), [1, 4])).toBe(true);
    expect(isOnShard(String(5n << 22n), [0, 4])).toBe(false);
  });
});

describe("receives", () => {
  it("routes nothing outside guilds, and no lobby, internal or test event", () => {
    expect(toRoutedEvent(stored({ seq: 1, type: "TOKENS_REVOKED", guildId: null, data: {}, createdAt: "" }))).toBeNull();
    expect(toRoutedEvent(stored({ seq: 1, type: "LOBBY_UPDATE", guildId: null, data: {}, createdAt: "" }))).toBeNull();
    expect(toRoutedEvent(stored({ seq: 1, type: "TEST_SETUP", guildId: GUILD, data: {}, createdAt: "" }))).toBeNull();
  });

  it("needs the bot in the guild", () => {
    const update = event(E.GuildUpdate, { id: GUILD });
    expect(receives(update, session(), SEES)).toEqual({ kind: "event", blank: false });
    expect(receives(update, session({ guildIds: new Set() }), SEES)).toEqual({ kind: "none" });
  });

  it("needs the intents that give the event", () => {
    const ban = event(E.GuildBanAdd, { guild_id: GUILD, user: user(OTHER) });
    expect(receives(ban, session(), SEES).kind).toBe("event");
    expect(receives(ban, session({ intents: I.Guilds }), SEES).kind).toBe("none");
  });

  it("sends the bot's own member updates without GUILD_MEMBERS", () => {
    const own = event(E.GuildMemberUpdate, { guild_id: GUILD, user: user(BOT), roles: [] });
    const other = event(E.GuildMemberUpdate, { guild_id: GUILD, user: user(OTHER), roles: [] });
    expect(receives(own, session({ intents: I.Guilds }), SEES).kind).toBe("event");
    expect(receives(other, session({ intents: I.Guilds }), SEES).kind).toBe("none");
  });

  it("sends thread member changes to GUILDS alone only when they are the bot's", () => {
    const others = event(E.ThreadMembersUpdate, { id: "7", guild_id: GUILD, member_count: 1, added_members: [{ id: "7", user_id: OTHER }] });
    const own = event(E.ThreadMembersUpdate, { id: "7", guild_id: GUILD, member_count: 0, removed_member_ids: [BOT] });
    expect(receives(others, session({ intents: I.Guilds }), SEES).kind).toBe("none");
    expect(receives(own, session({ intents: I.Guilds }), SEES).kind).toBe("event");
    expect(receives(others, session({ intents: I.GuildMembers }), SEES).kind).toBe("event");
    expect(receives(own, session({ intents: I.Guilds }), BLIND).kind).toBe("none");
  });

  it("sends channel-scoped events only to bots that can view the channel", () => {
    for (const scoped of [
      message(),
      event(E.ChannelUpdate, { id: "6", type: 0, guild_id: GUILD, permission_overwrites: [] }),
      event(E.ThreadDelete, { id: "7", guild_id: GUILD, parent_id: "6", type: 11 }),
      event(E.InviteDelete, { channel_id: "6", guild_id: GUILD, code: "abc" }),
      event(E.WebhooksUpdate, { channel_id: "6", guild_id: GUILD }),
      event(E.VoiceChannelStatusUpdate, { id: "6", guild_id: GUILD, status: null }),
      event(E.MessageDeleteBulk, { ids: ["5"], channel_id: "6", guild_id: GUILD }),
    ]) {
      const asked = session({ intents: 0x3ffffff });
      expect(receives(scoped, asked, SEES).kind, scoped.type).toBe("event");
      expect(receives(scoped, asked, BLIND).kind, scoped.type).toBe("none");
    }
    expect(event(E.InviteCreate, { channel_id: "6", guild_id: GUILD, code: "abc" }).channel).toEqual({ id: "6", needs: P.ManageChannels });
    expect(message().channel).toEqual({ id: "6" });
    // Guild-wide events do not look at channels.
    expect(receives(event(E.GuildRoleCreate, { guild_id: GUILD, role: { id: "2" } }), session(), BLIND).kind).toBe("event");
  });

  it("sends audit entries only to bots that may view the audit log, with GUILD_MODERATION", () => {
    const entry = event(E.GuildAuditLogEntryCreate, { id: "3", guild_id: GUILD, user_id: OTHER, target_id: "2", action_type: 30 });
    expect(needsFacts(entry)).toBe(true);
    expect(receives(entry, session(), SEES).kind).toBe("event");
    expect(receives(entry, session(), { canViewChannel: true, canViewAuditLog: false }).kind).toBe("none");
    expect(receives(entry, session({ intents: I.Guilds }), SEES).kind).toBe("none");
    // Guild-wide events do not ask.
    expect(needsFacts(event(E.GuildRoleCreate, { guild_id: GUILD, role: { id: "2" } }))).toBe(false);
  });

  it("sends a hidden channel's create, update and delete obfuscated to a session that asked, and nothing else of it", () => {
    const obfuscating = session({ intents: 0x3ffffff, channelObfuscation: true });
    for (const type of [E.ChannelCreate, E.ChannelUpdate, E.ChannelDelete]) {
      const channel = event(type, { id: "6", type: 0, guild_id: GUILD, permission_overwrites: [] });
      expect(receives(channel, obfuscating, BLIND), type).toEqual({ kind: "obfuscated" });
      expect(receives(channel, obfuscating, SEES), type).toEqual({ kind: "event", blank: false });
      expect(receives(channel, session({ intents: 0x3ffffff }), BLIND), type).toEqual({ kind: "none" });
      // Without GUILDS the session hears no channel event, hidden or not.
      expect(receives(channel, session({ intents: I.GuildMessages, channelObfuscation: true }), BLIND), type).toEqual({ kind: "none" });
    }
    for (const inside of [
      message(),
      event(E.ThreadCreate, { id: "7", guild_id: GUILD, parent_id: "6", type: 11 }),
      event(E.InviteCreate, { channel_id: "6", guild_id: GUILD, code: "abc" }),
      event(E.WebhooksUpdate, { channel_id: "6", guild_id: GUILD }),
    ]) {
      expect(receives(inside, obfuscating, BLIND), inside.type).toEqual({ kind: "none" });
    }
  });

  it("empties message content unless the session may read it or the message is exempt", () => {
    expect(receives(message(), session(), SEES)).toEqual({ kind: "event", blank: true });
    expect(receives(message(), session({ intents: I.GuildMessages | I.MessageContent, messageContent: true }), SEES)).toEqual({ kind: "event", blank: false });
    expect(receives(message(), session({ intents: I.GuildMessages | I.MessageContent, messageContent: false }), SEES)).toEqual({ kind: "event", blank: true });
    expect(receives(message({ mentions: [user(BOT)] }), session(), SEES)).toEqual({ kind: "event", blank: false });
    expect(receives(message({ author: user(BOT) }), session(), SEES)).toEqual({ kind: "event", blank: false });
    // Deletions carry no content.
    expect(receives(event(E.MessageDelete, { id: "5", channel_id: "6", guild_id: GUILD }), session(), SEES)).toEqual({ kind: "event", blank: false });
  });

  it("joins the bot's new guild on its shard only", () => {
    const added = event(E.GuildMemberAdd, { guild_id: GUILD, user: user(BOT), roles: [] });
    expect(receives(added, session({ guildIds: new Set() }), SEES)).toEqual({ kind: "join", dispatch: true });
    expect(receives(added, session({ guildIds: new Set(), intents: I.GuildMessages }), SEES)).toEqual({ kind: "join", dispatch: false });
    const elsewhere: [number, number] = [(shardOf(GUILD, 3) + 1) % 3, 3];
    expect(receives(added, session({ guildIds: new Set(), shard: elsewhere }), SEES)).toEqual({ kind: "none" });
    expect(receives(added, session(), SEES)).toEqual({ kind: "none" });
    // Another member's arrival is an ordinary event.
    expect(receives(event(E.GuildMemberAdd, { guild_id: GUILD, user: user(OTHER), roles: [] }), session(), SEES)).toEqual({ kind: "event", blank: false });
    // A guild the bot creates is one it joins.
    expect(receives(event(E.GuildCreate, { id: GUILD, owner_id: BOT }), session({ guildIds: new Set() }), SEES)).toEqual({ kind: "join", dispatch: true });
    expect(receives(event(E.GuildCreate, { id: GUILD, owner_id: OTHER }), session({ guildIds: new Set() }), SEES)).toEqual({ kind: "none" });
  });

  it("leaves a guild when the bot is removed or banned or the guild is deleted", () => {
    for (const left of [
      event(E.GuildMemberRemove, { guild_id: GUILD, user: user(BOT) }),
      event(E.GuildBanAdd, { guild_id: GUILD, user: user(BOT) }),
      event(E.GuildDelete, { id: GUILD }),
    ]) {
      expect(receives(left, session(), SEES), left.type).toEqual({ kind: "leave", dispatch: true });
      expect(receives(left, session({ guildIds: new Set() }), SEES), left.type).toEqual({ kind: "none" });
    }
    expect(receives(event(E.GuildMemberRemove, { guild_id: GUILD, user: user(OTHER) }), session(), SEES)).toEqual({ kind: "event", blank: false });
  });
});
