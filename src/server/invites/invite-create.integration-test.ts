import { randomBytes } from "node:crypto";
import { AuditLogEvent, ChannelType, GatewayDispatchEvents as E, InviteTargetType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { joinVoice } from "~/server/members/voice.service.ts";
import { DEFAULT_EVERYONE_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { makeBot, makeUser, writeGuildState } from "~/test/factories.ts";
import { HOUR_MS, inviteKit } from "~/test/invite-kit.ts";
import { MISSING_PERMISSIONS, UNAUTHORIZED } from "~/test/member-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { GUILD_INVITES_MAX } from "./invite.schema.ts";

const app = useTestApp();
const kit = inviteKit(app);
const DAY_S = 86_400;

describe("POST /channels/:channelId/invites", () => {
  it("creates an invite with the defaults, fires Invite Create and audits INVITE_CREATE with the reason", async () => {
    const { guild, owner, api, text } = await kit.setup();
    const before = Date.now();
    const res = await kit.create(api, text.id, {}, "for the newsletter");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 0,
      guild: { id: guild.id, name: guild.name },
      channel: { id: text.id, type: ChannelType.GuildText },
      inviter: { id: owner.user.id },
      uses: 0,
      max_uses: 0,
      max_age: DAY_S,
      temporary: false,
      flags: 0,
      roles: [],
    });
    expect(res.body.code).toMatch(/^[A-Za-z0-9]{10}$/);
    const expires = Date.parse(res.body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + DAY_S * 1000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + DAY_S * 1000 + 1000);
    expect(await kit.eventsOf(guild.id, E.InviteCreate)).toEqual([
      expect.objectContaining({
        code: res.body.code,
        channel_id: text.id,
        guild_id: guild.id,
        max_age: DAY_S,
        uses: 0,
        inviter: expect.objectContaining({ id: owner.user.id }),
      }),
    ]);
    const audit = await kit.auditOf(guild.id, AuditLogEvent.InviteCreate);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userId: owner.user.id, reason: "for the newsletter" });
    expect(audit[0]!.changes).toContainEqual({ key: "code", new_value: res.body.code });
  });

  it("draws distinct random codes", async () => {
    const { api, text } = await kit.setup();
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++) codes.add(await kit.code(api, text.id));
    expect(codes.size).toBe(20);
  });

  it("takes max_age 0 (never), up to 604800, and max_uses 0 to 100; refuses values outside with 50035", async () => {
    const { api, text } = await kit.setup();
    const never = await kit.create(api, text.id, { max_age: 0, unique: true });
    expect(never.body).toMatchObject({ max_age: 0, expires_at: null });
    const week = await kit.create(api, text.id, { max_age: 604_800, max_uses: 100, temporary: true, unique: true });
    expect(week.body).toMatchObject({ max_age: 604_800, max_uses: 100, temporary: true });
    for (const body of [{ max_age: 604_801 }, { max_age: -1 }, { max_uses: 101 }, { max_uses: -1 }, { max_age: "soon" }, { temporary: "yes" }]) {
      const res = await kit.create(api, text.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe(50035);
      expect(Object.keys(res.body.errors)).toEqual([Object.keys(body)[0]]);
    }
  });

  it("without unique reuses the caller's live invite with the same settings, never an expired or other one", async () => {
    const { guild, api, text } = await kit.setup();
    const first = (await kit.create(api, text.id, { max_uses: 5 })).body.code;
    expect((await kit.create(api, text.id, { max_uses: 5 })).body.code).toBe(first);
    expect((await kit.create(api, text.id, { max_uses: 5, unique: false })).body.code).toBe(first);
    const uniqueCode = (await kit.create(api, text.id, { max_uses: 5, unique: true })).body.code;
    expect(uniqueCode).not.toBe(first);
    expect((await kit.create(api, text.id, { max_uses: 6 })).body.code).not.toBe(first);
    expect((await kit.create(api, text.id, { max_uses: 5, temporary: true })).body.code).not.toBe(first);
    // Another inviter gets their own.
    const other = await kit.addBotWithRole(guild.id, P.CreateInstantInvite);
    expect((await kit.create(other.api, text.id, { max_uses: 5 })).body.code).not.toBe(first);
    // The newest live one with those settings is answered; once they have expired, a new one is made.
    expect((await kit.create(api, text.id, { max_uses: 5 })).body.code).toBe(uniqueCode);
    const events = (await kit.eventsOf(guild.id, E.InviteCreate)).length;
    await kit.backdate(guild.id, first, 2 * DAY_S * 1000);
    await kit.backdate(guild.id, uniqueCode, 2 * DAY_S * 1000);
    const fresh = await kit.create(api, text.id, { max_uses: 5 });
    expect([first, uniqueCode]).not.toContain(fresh.body.code);
    expect(await kit.eventsOf(guild.id, E.InviteCreate)).toHaveLength(events + 1);
  });

  it("needs CREATE_INSTANT_INVITE on the channel; 50001 outside, 10003 for unknown channels, 401 without a token", async () => {
    const { guild, text } = await kit.setup();
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.role.update({ where: { id: guild.id }, data: { permissions: DEFAULT_EVERYONE_PERMISSIONS & ~P.CreateInstantInvite } }),
    );
    const member = await kit.addBot(guild.id);
    expect((await kit.create(member.api, text.id)).body).toEqual(MISSING_PERMISSIONS);
    // A channel overwrite gives it back.
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.permissionOverwrite.create({ data: { channelId: text.id, targetId: member.user.id, type: 1, allow: P.CreateInstantInvite, deny: 0n } }),
    );
    expect((await kit.create(member.api, text.id)).status).toBe(200);
    const stranger = await makeBot(app.db);
    expect((await kit.create(app.as(bot(stranger.token)), text.id)).body.code).toBe(50001);
    expect((await kit.create(member.api, newId())).body.code).toBe(10003);
    expect((await kit.create(app.as(), text.id)).body).toEqual(UNAUTHORIZED);
  });

  it("refuses categories", async () => {
    const { guild, api } = await kit.setup();
    const category = await api.post(`/guilds/${guild.id}/channels`, { name: "cat", type: ChannelType.GuildCategory });
    expect(category.status).toBe(200);
    const res = await kit.create(api, category.body.id);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
  });

  it("STREAM needs target_user_id in that voice channel; EMBEDDED_APPLICATION a known application", async () => {
    const { guild, owner, api } = await kit.setup();
    const room = await kit.voiceChannel(guild.id);
    const streamer = await kit.addUser(guild.id);
    const stream = { target_type: InviteTargetType.Stream, target_user_id: streamer.user.id, unique: true };
    expect((await kit.create(api, room.id, { target_type: InviteTargetType.Stream })).body.errors).toHaveProperty("target_user_id");
    expect((await kit.create(api, room.id, stream)).body.errors).toHaveProperty("target_user_id");
    await joinVoice({ db: app.db, actor: null }, { channelId: room.id, userId: streamer.user.id });
    const res = await kit.create(api, room.id, stream);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ target_type: InviteTargetType.Stream, target_user: { id: streamer.user.id } });
    const other = await kit.voiceChannel(guild.id);
    expect((await kit.create(api, other.id, stream)).body.errors).toHaveProperty("target_user_id");

    const embedded = { target_type: InviteTargetType.EmbeddedApplication, unique: true };
    expect((await kit.create(api, room.id, embedded)).body.errors).toHaveProperty("target_application_id");
    expect((await kit.create(api, room.id, { ...embedded, target_application_id: newId() })).body.errors).toHaveProperty("target_application_id");
    const app2 = await kit.create(api, room.id, { ...embedded, target_application_id: owner.application.id });
    expect(app2.status).toBe(200);
    expect(app2.body.target_type).toBe(InviteTargetType.EmbeddedApplication);
    expect((await kit.create(api, room.id, { target_type: 3 })).body.code).toBe(50035);
  });

  it("role_ids need MANAGE_ROLES and roles below the caller's highest; the answer lists them partially", async () => {
    const { guild, api, text } = await kit.setup();
    const low = await kit.addRole(guild.id, 1, { name: "newcomer" });
    const high = await kit.addRole(guild.id, 9);
    const plain = await kit.addBotWithRole(guild.id, P.CreateInstantInvite, 5);
    expect((await kit.create(plain.api, text.id, { role_ids: [low.id] })).body).toEqual(MISSING_PERMISSIONS);
    const manager = await kit.addBotWithRole(guild.id, P.CreateInstantInvite | P.ManageRoles, 5);
    expect((await kit.create(manager.api, text.id, { role_ids: [high.id] })).body).toEqual(MISSING_PERMISSIONS);
    expect((await kit.create(manager.api, text.id, { role_ids: [manager.role.id] })).body).toEqual(MISSING_PERMISSIONS);
    expect((await kit.create(manager.api, text.id, { role_ids: [newId()] })).body.code).toBe(10011);
    // Never @everyone or a managed role, not even for the owner.
    const managed = await kit.addRole(guild.id, 2, { managed: true });
    expect((await kit.create(api, text.id, { role_ids: [guild.id] })).body.code).toBe(50028);
    expect((await kit.create(api, text.id, { role_ids: [managed.id] })).body.code).toBe(50028);
    const res = await kit.create(manager.api, text.id, { role_ids: [low.id, low.id] });
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual([{ id: low.id, name: "newcomer", position: 1, color: 0, colors: expect.any(Object), icon: null, unicode_emoji: null }]);
    // As one comma-separated string too, and the owner may grant any role.
    const owned = await kit.create(api, text.id, { role_ids: `${low.id},${high.id}`, unique: true });
    expect(owned.body.roles.map((role: { id: string }) => role.id).sort()).toEqual([low.id, high.id].sort());
  });

  it("IS_GUEST_INVITE is for voice channels only; other flags are refused", async () => {
    const { guild, api, text } = await kit.setup();
    const room = await kit.voiceChannel(guild.id);
    expect((await kit.create(api, text.id, { flags: 1 })).body.errors).toHaveProperty("flags");
    expect((await kit.create(api, room.id, { flags: 2 })).body.errors).toHaveProperty("flags");
    const res = await kit.create(api, room.id, { flags: 1 });
    expect(res.status).toBe(200);
    expect(res.body.flags).toBe(1);
  });

  it("target_user_ids must name known users, and an invite with them is never reused", async () => {
    const { api, text } = await kit.setup();
    const a = await makeUser(app.db);
    const b = await makeUser(app.db);
    expect((await kit.create(api, text.id, { target_user_ids: [a.user.id, newId()] })).body.errors).toHaveProperty("target_user_ids");
    expect((await kit.create(api, text.id, { target_user_ids: ["nope"] })).body.code).toBe(50035);
    const first = await kit.create(api, text.id, { target_user_ids: [a.user.id, b.user.id] });
    expect(first.status).toBe(200);
    const rows = await app.db.inviteTargetUser.findMany({ where: { code: first.body.code } });
    expect(rows.map((row) => row.userId).sort()).toEqual([a.user.id, b.user.id].sort());
    const second = await kit.create(api, text.id, { target_user_ids: `${a.user.id}` });
    expect(second.body.code).not.toBe(first.body.code);
    expect((await kit.create(api, text.id)).body.code).not.toBe(first.body.code);
  });

  it(`allows ${GUILD_INVITES_MAX} invites per guild, then 30016`, async () => {
    const { guild, owner, api, text } = await kit.setup();
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.invite.createMany({
        data: Array.from({ length: GUILD_INVITES_MAX - 1 }, () => ({
          code: randomBytes(8).toString("hex"),
          guildId: guild.id,
          channelId: text.id,
          inviterId: owner.user.id,
          expiresAt: new Date(Date.now() + HOUR_MS),
        })),
      }),
    );
    const last = await kit.create(api, text.id, { unique: true });
    expect(last.status).toBe(200);
    const res = await kit.create(api, text.id, { unique: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 30016, message: `Maximum number of invites reached (${GUILD_INVITES_MAX})` });
    // Expired invites the sweep has not reached yet do not count.
    await kit.backdate(guild.id, last.body.code, 2 * DAY_S * 1000);
    expect((await kit.create(api, text.id, { unique: true })).status).toBe(200);
  });
});
