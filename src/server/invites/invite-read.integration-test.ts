import { AuditLogEvent, GatewayDispatchEvents as E, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addPresences, makeBot, makeUser, writeGuildState } from "~/test/factories.ts";
import { HOUR_MS, UNKNOWN_INVITE, inviteKit } from "~/test/invite-kit.ts";
import { MISSING_PERMISSIONS, UNAUTHORIZED } from "~/test/member-kit.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = inviteKit(app);
const METADATA = ["uses", "max_uses", "max_age", "temporary", "created_at"];

describe("GET /invites/:code", () => {
  it("answers the invite without authentication, counts only with with_counts", async () => {
    const { guild, owner, api, text } = await kit.setup();
    const role = await kit.addRole(guild.id, 1, { name: "granted" });
    await kit.addRole(guild.id, 2, { name: "not granted" });
    const code = await kit.code(api, text.id, { role_ids: [role.id], max_uses: 3 });
    await kit.addUser(guild.id);
    const res = await app.as().get(`/invites/${code}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 0,
      code,
      guild: { id: guild.id, name: guild.name, vanity_url_code: null },
      channel: { id: text.id, name: expect.any(String) },
      inviter: { id: owner.user.id },
      expires_at: expect.any(String),
      flags: 0,
      roles: [{ id: role.id, name: "granted", position: 1 }],
    });
    expect(Object.keys(res.body.roles[0]).sort()).toEqual(["color", "colors", "icon", "id", "name", "position", "unicode_emoji"]);
    for (const key of [...METADATA, "approximate_member_count", "approximate_presence_count"]) expect(res.body).not.toHaveProperty(key);

    const counted = await app.as().get(`/invites/${code}`, { query: { with_counts: true } });
    // The owner bot and the user.
    expect(counted.body).toMatchObject({ approximate_member_count: 2, approximate_presence_count: expect.any(Number) });
    const notCounted = await app.as().get(`/invites/${code}`, { query: { with_counts: false } });
    expect(notCounted.body).not.toHaveProperty("approximate_member_count");
    expect((await app.as().get(`/invites/${code}`, { query: { with_counts: "maybe" } })).body.code).toBe(50035);
    // A bot token reads it the same way.
    expect((await api.get(`/invites/${code}`)).body.code).toBe(code);
  });

  it("counts as present the members whose presence others see online, idle or dnd (not invisible)", async () => {
    const { guild, owner, api, text } = await kit.setup();
    const code = await kit.code(api, text.id);
    const idle = await kit.addUser(guild.id);
    const hidden = await kit.addUser(guild.id);
    await kit.addUser(guild.id);
    await addPresences(app.db, [owner.user.id]);
    await addPresences(app.db, [idle.user.id], "idle");
    await addPresences(app.db, [hidden.user.id], "invisible");
    const res = await app.as().get(`/invites/${code}`, { query: { with_counts: true } });
    expect(res.body).toMatchObject({ approximate_member_count: 4, approximate_presence_count: 2 });
  });

  it("leaves guild_scheduled_event out when the id names no event of the guild", async () => {
    const { api, text } = await kit.setup();
    const code = await kit.code(api, text.id);
    const res = await app.as().get(`/invites/${code}`, { query: { guild_scheduled_event_id: newId() } });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("guild_scheduled_event");
    expect((await app.as().get(`/invites/${code}`, { query: { guild_scheduled_event_id: "x" } })).body.code).toBe(50035);
  });

  it("answers 10006 for unknown, expired and used-up invites", async () => {
    const { guild, api, text } = await kit.setup();
    expect((await app.as().get(`/invites/nope${newId()}`)).body).toEqual(UNKNOWN_INVITE);
    const expiring = await kit.code(api, text.id, { max_age: 3600 });
    await kit.backdate(guild.id, expiring, HOUR_MS - 60_000);
    expect((await app.as().get(`/invites/${expiring}`)).status).toBe(200);
    await kit.backdate(guild.id, expiring, 60_000);
    const gone = await app.as().get(`/invites/${expiring}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(UNKNOWN_INVITE);
    const forever = await kit.code(api, text.id, { max_age: 0 });
    await kit.backdate(guild.id, forever, 365 * 24 * HOUR_MS);
    expect((await app.as().get(`/invites/${forever}`)).status).toBe(200);
    const used = await kit.code(api, text.id, { max_uses: 2 });
    await kit.updateInvite(guild.id, used, { uses: 2 });
    expect((await app.as().get(`/invites/${used}`)).body).toEqual(UNKNOWN_INVITE);
  });
});

describe("DELETE /invites/:code", () => {
  it("answers the invite, fires Invite Delete and audits INVITE_DELETE with the reason", async () => {
    const { guild, owner, api, text } = await kit.setup();
    const code = await kit.code(api, text.id, { max_uses: 4 });
    const res = await api.delete(`/invites/${code}`, { headers: { "X-Audit-Log-Reason": "leaked" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code, channel: { id: text.id }, inviter: { id: owner.user.id } });
    expect(await kit.eventsOf(guild.id, E.InviteDelete)).toEqual([{ channel_id: text.id, guild_id: guild.id, code }]);
    const audit = await kit.auditOf(guild.id, AuditLogEvent.InviteDelete);
    expect(audit).toEqual([expect.objectContaining({ userId: owner.user.id, reason: "leaked" })]);
    expect(audit[0]!.changes).toContainEqual({ key: "code", old_value: code });
    expect((await app.as().get(`/invites/${code}`)).body).toEqual(UNKNOWN_INVITE);
    expect((await api.delete(`/invites/${code}`)).body).toEqual(UNKNOWN_INVITE);
  });

  it("answers 10006 for an expired invite the sweep has not deleted yet", async () => {
    const { guild, api, text } = await kit.setup();
    const code = await kit.code(api, text.id, { max_age: 60 });
    await kit.backdate(guild.id, code, 61_000);
    expect((await api.delete(`/invites/${code}`)).body).toEqual(UNKNOWN_INVITE);
    expect(await kit.eventsOf(guild.id, E.InviteDelete)).toEqual([]);
  });

  it("needs MANAGE_CHANNELS on the invite's channel or MANAGE_GUILD", async () => {
    const { guild, api, text } = await kit.setup();
    const plain = await kit.addBotWithRole(guild.id, P.ManageMessages);
    const code = await kit.code(api, text.id);
    expect((await plain.api.delete(`/invites/${code}`)).body).toEqual(MISSING_PERMISSIONS);
    // MANAGE_CHANNELS granted on the channel alone is enough.
    const channelManager = await kit.addBot(guild.id);
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.permissionOverwrite.create({ data: { channelId: text.id, targetId: channelManager.user.id, type: 1, allow: P.ManageChannels, deny: 0n } }),
    );
    expect((await channelManager.api.delete(`/invites/${code}`)).status).toBe(200);
    // MANAGE_CHANNELS denied on the channel: MANAGE_GUILD still deletes.
    const roleManager = await kit.addBotWithRole(guild.id, P.ManageChannels);
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.permissionOverwrite.create({ data: { channelId: text.id, targetId: roleManager.role.id, type: 0, allow: 0n, deny: P.ManageChannels } }),
    );
    const second = await kit.code(api, text.id);
    expect((await roleManager.api.delete(`/invites/${second}`)).body).toEqual(MISSING_PERMISSIONS);
    const guildManager = await kit.addBotWithRole(guild.id, P.ManageGuild);
    expect((await guildManager.api.delete(`/invites/${second}`)).status).toBe(200);
    const third = await kit.code(api, text.id);
    const stranger = await makeBot(app.db);
    expect((await app.as(bot(stranger.token)).delete(`/invites/${third}`)).body.code).toBe(50001);
    expect((await app.as().delete(`/invites/${third}`)).body).toEqual(UNAUTHORIZED);
    expect(await app.db.invite.count({ where: { code: third } })).toBe(1);
  });
});

describe("GET /channels/:channelId/invites", () => {
  it("needs MANAGE_CHANNELS; lists the channel's live invites with metadata", async () => {
    const { guild, api, text } = await kit.setup();
    const room = await kit.voiceChannel(guild.id);
    const a = await kit.code(api, text.id, { max_uses: 2 });
    const b = await kit.code(api, text.id, { temporary: true });
    const expired = await kit.code(api, text.id);
    await kit.code(api, room.id);
    await kit.backdate(guild.id, expired, 2 * 24 * HOUR_MS);
    const res = await api.get(`/channels/${text.id}/invites`);
    expect(res.status).toBe(200);
    expect(res.body.map((invite: { code: string }) => invite.code)).toEqual([a, b]);
    expect(res.body[0]).toMatchObject({ uses: 0, max_uses: 2, max_age: 86_400, temporary: false, created_at: expect.any(String) });
    expect(res.body[1].temporary).toBe(true);
    const plain = await kit.addBotWithRole(guild.id, P.ManageGuild);
    expect((await plain.api.get(`/channels/${text.id}/invites`)).body).toEqual(MISSING_PERMISSIONS);
    const manager = await kit.addBotWithRole(guild.id, P.ManageChannels);
    expect((await manager.api.get(`/channels/${text.id}/invites`)).body).toHaveLength(2);
    expect((await api.get(`/channels/${newId()}/invites`)).body.code).toBe(10003);
  });
});

describe("GET /guilds/:guildId/invites", () => {
  it("with MANAGE_GUILD lists live invites with metadata; with VIEW_AUDIT_LOG without it; otherwise 50013", async () => {
    const { guild, api, text } = await kit.setup();
    const room = await kit.voiceChannel(guild.id);
    const a = await kit.code(api, text.id, { max_uses: 7 });
    const b = await kit.code(api, room.id, { max_age: 0 });
    const used = await kit.code(api, text.id, { max_uses: 1 });
    await kit.updateInvite(guild.id, used, { uses: 1 });
    const full = await api.get(`/guilds/${guild.id}/invites`);
    expect(full.status).toBe(200);
    expect(full.body.map((invite: { code: string }) => invite.code)).toEqual([a, b]);
    expect(full.body[0]).toMatchObject({ uses: 0, max_uses: 7, max_age: 86_400, temporary: false, created_at: expect.any(String) });
    expect(full.body[1]).toMatchObject({ channel: { id: room.id }, max_age: 0, expires_at: null });

    const manager = await kit.addBotWithRole(guild.id, P.ManageGuild);
    expect((await manager.api.get(`/guilds/${guild.id}/invites`)).body[0]).toHaveProperty("max_uses", 7);
    const auditor = await kit.addBotWithRole(guild.id, P.ViewAuditLog);
    const partial = await auditor.api.get(`/guilds/${guild.id}/invites`);
    expect(partial.status).toBe(200);
    expect(partial.body.map((invite: { code: string }) => invite.code)).toEqual([a, b]);
    for (const invite of partial.body) for (const key of METADATA) expect(invite).not.toHaveProperty(key);
    const plain = await kit.addBotWithRole(guild.id, P.ManageChannels);
    expect((await plain.api.get(`/guilds/${guild.id}/invites`)).body).toEqual(MISSING_PERMISSIONS);
    const stranger = await makeBot(app.db);
    expect((await app.as(bot(stranger.token)).get(`/guilds/${guild.id}/invites`)).body.code).toBe(50001);
    const user = await makeUser(app.db);
    expect((await app.as(bearer(user.token)).get(`/guilds/${guild.id}/invites`)).status).toBe(401);
  });
});
