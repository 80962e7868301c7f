import { ChannelType, GatewayDispatchEvents as E, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "~/server/events/event-map.ts";
import { toRoutedEvent } from "~/server/gateway/routed-event.ts";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { guildNotice, lobbyNotice, type GuildViewer } from "./live-notice.ts";

const GUILD = "1300000000000000000";
const CHANNEL = "1300000000000000001";
const VIEWER = "700";
const OTHER = "800";
const user = (id: string) => ({ id, username: `u${id}`, discriminator: "0", global_name: null, avatar: null });

/** An outbox event as a test writes it by hand: any type, any payload. */
function stored(type: string, data: object, guildId: string | null = GUILD): StoredEvent {
  return { seq: 1, type, guildId, data, createdAt: "2026-01-01T00:00:00.000Z" } as StoredEvent;
}

function event(type: string, data: object) {
  const routed = toRoutedEvent(stored(type, data));
  if (!routed) throw new Error(`${type} is not routed`);
  return routed;
}

const READS_NOTHING = { bans: false, invites: false, integrations: false, auditLog: false };
const READS_ALL = { bans: true, invites: true, integrations: true, auditLog: true };
const SEES_CHANNEL = P.ViewChannel | P.ReadMessageHistory;

function viewer(fields: Partial<GuildViewer> = {}): GuildViewer {
  return { userId: VIEWER, isMember: true, reads: READS_NOTHING, inChannel: null, ...fields };
}

const memberUpdate = (userId: string) => event(E.GuildMemberUpdate, { guild_id: GUILD, user: user(userId), roles: [], joined_at: "2026-01-01T00:00:00.000Z" });
const messageCreate = () =>
  event(E.MessageCreate, { id: "5", channel_id: CHANNEL, guild_id: GUILD, author: user(OTHER), content: "hi", mentions: [], attachments: [], embeds: [] });
const channelCreate = () => event(E.ChannelCreate, { id: CHANNEL, guild_id: GUILD, type: ChannelType.GuildText, name: "secret", permission_overwrites: [] });

describe("guild notices", () => {
  it("tell a member of guild-wide changes with the ids they are about, never the object", () => {
    expect(guildNotice(memberUpdate(OTHER), viewer())).toEqual({ type: E.GuildMemberUpdate, channelId: null, userId: OTHER, self: false, gone: false });
    const role = event(E.GuildRoleUpdate, { guild_id: GUILD, role: { id: "9", name: "Mods" } });
    expect(guildNotice(role, viewer())).toMatchObject({ type: E.GuildRoleUpdate, self: false });
  });

  it("tell nothing to someone who is no longer a member", () => {
    expect(guildNotice(memberUpdate(OTHER), viewer({ isMember: false }))).toBeNull();
  });

  it("tell nothing of a channel the viewer cannot view, and tell those who can", () => {
    expect(guildNotice(channelCreate(), viewer({ inChannel: 0n }))).toBeNull();
    expect(guildNotice(messageCreate(), viewer({ inChannel: 0n }))).toBeNull();
    expect(guildNotice(channelCreate(), viewer({ inChannel: P.ViewChannel }))).toMatchObject({ type: E.ChannelCreate, channelId: CHANNEL });
    expect(guildNotice(messageCreate(), viewer({ inChannel: SEES_CHANNEL }))).toMatchObject({ type: E.MessageCreate, channelId: CHANNEL });
  });

  it("tell of messages only those who read the channel's history, as message reads do", () => {
    expect(guildNotice(messageCreate(), viewer({ inChannel: P.ViewChannel }))).toBeNull();
  });

  it("tell of bans only those who read the ban list", () => {
    const ban = event(E.GuildBanAdd, { guild_id: GUILD, user: user(OTHER) });
    expect(guildNotice(ban, viewer())).toBeNull();
    expect(guildNotice(ban, viewer({ reads: { ...READS_NOTHING, bans: true } }))).toMatchObject({ type: E.GuildBanAdd, userId: OTHER });
  });

  it("tell of audit entries only those who read the audit log", () => {
    const entry = event(E.GuildAuditLogEntryCreate, { id: "3", guild_id: GUILD, user_id: OTHER, target_id: "9", action_type: 30 });
    expect(guildNotice(entry, viewer())).toBeNull();
    expect(guildNotice(entry, viewer({ reads: { ...READS_NOTHING, auditLog: true } }))).toMatchObject({ type: E.GuildAuditLogEntryCreate });
  });

  it("tell of webhooks those who manage webhooks in the channel", () => {
    const webhooks = event(E.WebhooksUpdate, { guild_id: GUILD, channel_id: CHANNEL });
    expect(guildNotice(webhooks, viewer({ inChannel: SEES_CHANNEL, reads: READS_ALL }))).toBeNull();
    expect(guildNotice(webhooks, viewer({ inChannel: P.ViewChannel | P.ManageWebhooks }))).toMatchObject({ type: E.WebhooksUpdate });
    expect(guildNotice(webhooks, viewer({ inChannel: P.ManageWebhooks }))).toBeNull();
  });

  it("tell of invites those who read the guild's invite list or manage the channel, where the channel shows", () => {
    const invite = event(E.InviteCreate, { guild_id: GUILD, channel_id: CHANNEL, code: "abc", uses: 0, max_uses: 0, max_age: 0, temporary: false });
    expect(guildNotice(invite, viewer({ inChannel: P.ViewChannel }))).toBeNull();
    expect(guildNotice(invite, viewer({ inChannel: P.ViewChannel, reads: { ...READS_NOTHING, invites: true } }))).toMatchObject({ type: E.InviteCreate });
    expect(guildNotice(invite, viewer({ inChannel: P.ViewChannel | P.ManageChannels }))).toMatchObject({ type: E.InviteCreate });
    expect(guildNotice(invite, viewer({ inChannel: 0n, reads: READS_ALL }))).toBeNull();
  });

  it("tell of integrations those who manage the guild", () => {
    const integrations = event(E.GuildIntegrationsUpdate, { guild_id: GUILD });
    expect(guildNotice(integrations, viewer())).toBeNull();
    expect(guildNotice(integrations, viewer({ reads: { ...READS_NOTHING, integrations: true } }))).toMatchObject({ type: E.GuildIntegrationsUpdate });
  });

  it("tell the viewer of their own removal, ban, or the guild's end, and mark it the last", () => {
    const removed = event(E.GuildMemberRemove, { guild_id: GUILD, user: user(VIEWER) });
    expect(guildNotice(removed, viewer({ isMember: false }))).toMatchObject({ self: true, gone: true });
    const banned = event(E.GuildBanAdd, { guild_id: GUILD, user: user(VIEWER) });
    expect(guildNotice(banned, viewer({ isMember: false }))).toMatchObject({ self: true, gone: true });
    expect(guildNotice(event(E.GuildDelete, { id: GUILD }), viewer())).toMatchObject({ gone: true });
  });

  it("mark changes to the viewer's own membership", () => {
    expect(guildNotice(memberUpdate(VIEWER), viewer())).toMatchObject({ self: true, gone: false });
  });
});

describe("lobby notices", () => {
  const APP = "600";
  const message = stored(LobbyEvents.MessageCreate, { id: "1", lobby_id: "50", channel_id: "50", application_id: APP, content: "gg" }, null);

  it("tell the owner of the application of its lobbies' events", () => {
    expect(lobbyNotice(message, { applicationId: APP, ownsApplication: true }, APP)).toEqual({ type: LobbyEvents.MessageCreate, lobbyId: "50" });
    const created = stored(LobbyEvents.Create, { id: "51", application_id: APP }, null);
    expect(lobbyNotice(created, { applicationId: APP, ownsApplication: true }, APP)).toEqual({ type: LobbyEvents.Create, lobbyId: "51" });
  });

  it("tell nothing of another application's lobbies, nor to someone who no longer owns it", () => {
    expect(lobbyNotice(message, { applicationId: "601", ownsApplication: true }, APP)).toBeNull();
    expect(lobbyNotice(message, { applicationId: APP, ownsApplication: false }, APP)).toBeNull();
  });

  it("tell nothing of guild events", () => {
    expect(lobbyNotice(stored(E.GuildUpdate, { id: GUILD }), { applicationId: APP, ownsApplication: true }, null)).toBeNull();
  });
});
