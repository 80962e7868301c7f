import { TRPCError } from "@trpc/server";
import { AuditLogEvent, ChannelType, PermissionFlagsBits } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createGuildChannel } from "~/server/channels/create-channel.service.ts";
import { deleteChannel } from "~/server/channels/delete-channel.service.ts";
import { modifyChannel } from "~/server/channels/modify-channel.service.ts";
import { modifyGuild } from "~/server/guilds/guild.service.ts";
import { banUser } from "~/server/members/ban.service.ts";
import { modifyMember } from "~/server/members/modify-member.service.ts";
import { createRole, deleteRole } from "~/server/roles/role.service.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { createWebhook, deleteWebhook } from "~/server/webhooks/webhook.service.ts";
import { addMember, makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();

async function ownedGuild() {
  const owner = await makeUser(app.db);
  const guild = await makeGuild(app.db, dashboardActor(owner.user.id));
  const ctx = { db: app.db, actor: dashboardActor(owner.user.id) };
  return { owner, guild, ctx, caller: createCaller({ db: app.db, userId: owner.user.id }) };
}

describe("audit.list", () => {
  it("pages the guild's changes newest first", async () => {
    const { owner, guild, caller } = await ownedGuild();
    await caller.guild.modify({ guildId: guild.id, body: { name: "First rename" } });
    await caller.guild.modify({ guildId: guild.id, body: { name: "Second rename" } });

    const first = await caller.audit.list({ guildId: guild.id, query: { limit: "1" } });
    expect(first.entries).toHaveLength(1);
    expect(first.entries[0]).toMatchObject({
      action_type: AuditLogEvent.GuildUpdate,
      user_id: owner.user.id,
      target_id: guild.id,
      changes: [{ key: "name", old_value: "First rename", new_value: "Second rename" }],
    });
    expect(first.names[owner.user.id]).toMatchObject({ kind: "user", username: owner.user.username, member: true });
    expect(first.names[guild.id]).toEqual({ kind: "guild", name: "Second rename" });

    const next = await caller.audit.list({ guildId: guild.id, query: { limit: "1", before: first.entries[0]!.id } });
    expect(next.entries[0]?.changes).toEqual([{ key: "name", old_value: guild.name, new_value: "First rename" }]);
  });

  it("names banned users, roles, channels and webhooks, and marks what was deleted with its last name", async () => {
    const { guild, ctx, caller } = await ownedGuild();
    const otter = await makeUser(app.db);
    await addMember(app.db, guild.id, otter.user.id);
    await banUser({ ...ctx, auditReason: "Posting scam links" }, { guildId: guild.id, userId: otter.user.id });
    const kept = await createRole(ctx, { guildId: guild.id, body: { name: "Moderators", color: 0xe67e22 } });
    const dropped = await createRole(ctx, { guildId: guild.id, body: { name: "Event Hosts" } });
    await deleteRole(ctx, { guildId: guild.id, roleId: dropped.id });
    const channel = await createGuildChannel(ctx, { guildId: guild.id, body: { name: "general-2", type: ChannelType.GuildText } });
    await modifyChannel(ctx, { channelId: channel.id, body: { name: "lobby" } });
    const temporary = await createGuildChannel(ctx, { guildId: guild.id, body: { name: "temporary" } });
    await deleteChannel(ctx, { channelId: temporary.id });
    const hook = await createWebhook(ctx, { channelId: channel.id, body: { name: "Deploys" } });
    const goneHook = await createWebhook(ctx, { channelId: channel.id, body: { name: "Old Builds" } });
    await deleteWebhook(ctx, { webhookId: goneHook.id });

    const log = await caller.audit.list({ guildId: guild.id, query: {} });
    const ban = log.entries.find((e) => e.action_type === AuditLogEvent.MemberBanAdd);
    expect(ban).toMatchObject({ target_id: otter.user.id, reason: "Posting scam links" });
    expect(log.names[otter.user.id]).toMatchObject({ kind: "user", name: otter.user.username, member: false, banned: true });
    expect(log.names[kept.id]).toEqual({ kind: "role", name: "Moderators", color: 0xe67e22 });
    expect(log.names[channel.id]).toMatchObject({ kind: "channel", name: "lobby", type: ChannelType.GuildText });
    expect(log.names[hook.id]).toEqual({ kind: "webhook", name: "Deploys", channelId: channel.id });
    for (const gone of [dropped.id, temporary.id, goneHook.id]) expect(log.names[gone]).toBeUndefined();
    expect(log.lastKnown).toMatchObject({ [dropped.id]: "Event Hosts", [temporary.id]: "temporary", [goneHook.id]: "Old Builds" });
    // The filters offer who acted and what was touched, deleted things too.
    expect(log.actorIds).toContain(ctx.actor.userId);
    expect(log.targets.map((t) => t.id)).toEqual(expect.arrayContaining([otter.user.id, kept.id, dropped.id, channel.id, goneHook.id]));
  });

  it("filters by action, by who did it and by target", async () => {
    const { guild, ctx, caller, owner } = await ownedGuild();
    const moderator = await makeUser(app.db);
    const role = await createRole(ctx, {
      guildId: guild.id,
      body: { name: "Mods", permissions: String(PermissionFlagsBits.ModerateMembers | PermissionFlagsBits.ViewAuditLog) },
    });
    await addMember(app.db, guild.id, moderator.user.id, [role.id]);
    const first = await makeUser(app.db);
    const second = await makeUser(app.db);
    for (const member of [first, second]) await addMember(app.db, guild.id, member.user.id);
    const until = new Date(Date.now() + 3600_000).toISOString();
    const modCtx = { db: app.db, actor: dashboardActor(moderator.user.id) };
    await modifyMember(modCtx, { guildId: guild.id, userId: first.user.id, body: { communication_disabled_until: until } });
    await modifyMember(ctx, { guildId: guild.id, userId: second.user.id, body: { communication_disabled_until: until } });
    await caller.guild.modify({ guildId: guild.id, body: { name: "Renamed" } });

    const byModerator = await caller.audit.list({ guildId: guild.id, query: { user_id: moderator.user.id } });
    expect(byModerator.entries.map((e) => e.target_id)).toEqual([first.user.id]);
    const aboutSecond = await caller.audit.list({ guildId: guild.id, query: { target_id: second.user.id } });
    expect(aboutSecond.entries.map((e) => [e.user_id, e.action_type])).toEqual([[owner.user.id, AuditLogEvent.MemberUpdate]]);
    const roles = await caller.audit.list({ guildId: guild.id, query: { action_type: String(AuditLogEvent.RoleCreate) } });
    expect(roles.entries.map((e) => e.target_id)).toEqual([role.id]);
    // The moderator, who holds View Audit Log, reads the same.
    const asModerator = createCaller({ db: app.db, userId: moderator.user.id });
    expect((await asModerator.audit.list({ guildId: guild.id, query: { target_id: first.user.id } })).entries).toHaveLength(1);
  });

  it("keeps the REST endpoint to the platform's documented filters", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const ctx = { db: app.db, actor: owner.actor };
    await modifyGuild(ctx, { guildId: guild.id, body: { name: "Renamed" } });
    await createRole(ctx, { guildId: guild.id, body: { name: "Helpers" } });
    const api = app.as(bot(owner.token));
    const everything = await api.get(`/guilds/${guild.id}/audit-logs`, { query: { target_id: guild.id } });
    expect(everything.status).toBe(200);
    expect(everything.body.audit_log_entries).toHaveLength(2);
  });

  it("is refused to members without View Audit Log", async () => {
    const { guild } = await ownedGuild();
    const member = await makeUser(app.db);
    await addMember(app.db, guild.id, member.user.id);
    const denied = await createCaller({ db: app.db, userId: member.user.id })
      .audit.list({ guildId: guild.id, query: {} })
      .catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(TRPCError);
    expect((denied as TRPCError).code).toBe("FORBIDDEN");
  });

  it("rejects a query the REST endpoint would reject, and a malformed target", async () => {
    const { guild, caller } = await ownedGuild();
    const invalid = await caller.audit.list({ guildId: guild.id, query: { limit: "500" } }).catch((error: unknown) => error);
    expect((invalid as TRPCError).code).toBe("BAD_REQUEST");
    const badTarget = await caller.audit.list({ guildId: guild.id, query: { target_id: "not-an-id" } }).catch((error: unknown) => error);
    expect((badTarget as TRPCError).code).toBe("BAD_REQUEST");
  });
});
