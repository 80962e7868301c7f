import { TRPCError } from "@trpc/server";
import { AuditLogEvent, GatewayDispatchEvents as E, GuildFeature, GuildMemberFlags, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor, type OAuth2Scope } from "~/server/auth/actor.ts";
import { createBearerToken } from "~/server/auth/tokens.service.ts";
import { DEFAULT_EVERYONE_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeBot, makeUser, writeGuildState } from "~/test/factories.ts";
import { MISSING_PERMISSIONS, memberKit } from "~/test/member-kit.ts";
import { bearer } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { leaveGuild } from "./member.service.ts";
import { joinVoice } from "./voice.service.ts";

const app = useTestApp();
const kit = memberKit(app);

const INVALID_TOKEN = { code: 50025, message: "Invalid OAuth2 access token" };

/** A user's OAuth2 token granted to `applicationId`. */
function grant(userId: string, applicationId: string | null, scopes: OAuth2Scope[] = ["identify", "guilds", "guilds.join"]) {
  return createBearerToken(app.db, { userId, applicationId, scopes });
}

/** A guild owned by a bot and a user who granted that bot's application guilds.join. */
async function setup() {
  const base = await kit.setup();
  const user = await makeUser(app.db);
  const token = await grant(user.user.id, base.owner.application.id);
  const join = (body: Record<string, unknown> = {}, api = base.api) =>
    api.put(`/guilds/${base.guild.id}/members/${user.user.id}`, { access_token: token, ...body });
  return { ...base, user, token, join, userApi: app.as(bearer(token)) };
}

describe("PUT /guilds/:guildId/members/:userId", () => {
  it("adds the user (201 with the member, Guild Member Add), then answers 204", async () => {
    const { guild, user, join } = await setup();
    const res = await join();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user: { id: user.user.id }, roles: [], nick: null, mute: false, deaf: false, pending: false, flags: 0 });
    expect(await kit.eventsOf(guild.id, E.GuildMemberAdd)).toEqual([
      expect.objectContaining({ guild_id: guild.id, user: expect.objectContaining({ id: user.user.id }) }),
    ]);
    const again = await join();
    expect(again.status).toBe(204);
    expect(again.body).toBe("");
    expect(await kit.eventsOf(guild.id, E.GuildMemberAdd)).toHaveLength(1);
  });

  it("answers 403 (50025) for a token of another app, of another user, without guilds.join, or not a token", async () => {
    const { guild, owner, user, api } = await setup();
    const other = await makeBot(app.db);
    const someoneElse = await makeUser(app.db);
    const tokens = [
      await grant(user.user.id, other.application.id),
      await grant(someoneElse.user.id, owner.application.id),
      await grant(user.user.id, owner.application.id, ["identify", "guilds"]),
      await grant(user.user.id, null),
      user.token,
      owner.token,
      "garbage",
    ];
    for (const access_token of tokens) {
      const res = await api.put(`/guilds/${guild.id}/members/${user.user.id}`, { access_token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(INVALID_TOKEN);
    }
    expect(await kit.memberRow(guild.id, user.user.id)).toBeNull();
    expect((await api.put(`/guilds/${guild.id}/members/${user.user.id}`, {})).body.code).toBe(50035);
  });

  it("needs the bot in the guild with CREATE_INSTANT_INVITE", async () => {
    const { guild, user } = await setup();
    const helper = await kit.addBot(guild.id);
    const token = await grant(user.user.id, helper.application.id);
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.role.update({ where: { id: guild.id }, data: { permissions: DEFAULT_EVERYONE_PERMISSIONS & ~P.CreateInstantInvite } }),
    );
    const res = await helper.api.put(`/guilds/${guild.id}/members/${user.user.id}`, { access_token: token });
    expect(res.body).toEqual(MISSING_PERMISSIONS);
    const stranger = await makeBot(app.db);
    const strangerToken = await grant(user.user.id, stranger.application.id);
    const outside = await app.as(`Bot ${stranger.token}`).put(`/guilds/${guild.id}/members/${user.user.id}`, { access_token: strangerToken });
    expect(outside.body.code).toBe(50001);
  });

  it("needs the permission of each field it sets", async () => {
    const { guild, user } = await setup();
    const helper = await kit.addBotWithRole(guild.id, P.CreateInstantInvite, 5);
    const token = await grant(user.user.id, helper.application.id);
    const low = await kit.addRole(guild.id, 2);
    const high = await kit.addRole(guild.id, 7);
    const put = (body: Record<string, unknown>) => helper.api.put(`/guilds/${guild.id}/members/${user.user.id}`, { access_token: token, ...body });
    for (const body of [{ nick: "n" }, { roles: [low.id] }, { mute: true }, { deaf: true }])
      expect((await put(body)).body, JSON.stringify(body)).toEqual(MISSING_PERMISSIONS);
    const strong = await kit.addBotWithRole(guild.id, P.CreateInstantInvite | P.ManageNicknames | P.ManageRoles | P.MuteMembers | P.DeafenMembers, 5);
    const strongToken = await grant(user.user.id, strong.application.id);
    const putStrong = (body: Record<string, unknown>) => strong.api.put(`/guilds/${guild.id}/members/${user.user.id}`, { access_token: strongToken, ...body });
    expect((await putStrong({ roles: [high.id] })).body).toEqual(MISSING_PERMISSIONS);
    const res = await putStrong({ nick: "Nick", roles: [low.id], mute: true, deaf: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ nick: "Nick", roles: [low.id], mute: true, deaf: true });
  });

  it("refuses a banned user (403, 40007)", async () => {
    const { guild, user, api, join } = await setup();
    expect((await api.put(`/guilds/${guild.id}/bans/${user.user.id}`)).status).toBe(204);
    const res = await join();
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 40007, message: "The user is banned from this guild." });
  });

  it("marks returning members DID_REJOIN, and they come back without their old roles", async () => {
    const { guild, user, join } = await setup();
    const role = await kit.addRole(guild.id, 1);
    expect((await join({ roles: [role.id] })).body).toMatchObject({ flags: 0, roles: [role.id] });
    await leaveGuild({ db: app.db, actor: dashboardActor(user.user.id) }, { guildId: guild.id });
    const back = await join();
    expect(back.status).toBe(201);
    expect(back.body.flags).toBe(GuildMemberFlags.DidRejoin);
    expect(back.body.roles).toEqual([]);
  });
});

describe("membership screening", () => {
  async function screeningSetup() {
    const s = await setup();
    await kit.setFeatures(s.guild.id, [GuildFeature.MemberVerificationGateEnabled]);
    return s;
  }

  it("adds members as pending and limits them to viewing until they complete it", async () => {
    const { guild, user, join, userApi } = await screeningSetup();
    const managers = await kit.addRole(guild.id, 1, { permissions: P.ManageRoles });
    const res = await join({ roles: [managers.id] });
    expect(res.body.pending).toBe(true);
    expect((await kit.eventsOf(guild.id, E.GuildMemberAdd))[0]).toMatchObject({ pending: true });
    const asUser = createCaller({ db: app.db, userId: user.user.id });
    const denied = await asUser.role.create({ guildId: guild.id, body: { name: "nope" } }).catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(TRPCError);
    expect((denied as TRPCError).code).toBe("FORBIDDEN");
    expect(await asUser.role.list({ guildId: guild.id })).toHaveLength(2);

    const done = await userApi.put(`/guilds/${guild.id}/requests/@me`);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ pending: false, user: { id: user.user.id } });
    expect((await kit.eventsOf(guild.id, E.GuildMemberUpdate)).at(-1)).toMatchObject({ pending: false, user: { id: user.user.id } });
    expect(await asUser.role.create({ guildId: guild.id, body: { name: "now allowed" } })).toMatchObject({ name: "now allowed" });
    // Completing it again changes nothing.
    const updates = (await kit.eventsOf(guild.id, E.GuildMemberUpdate)).length;
    expect((await userApi.put(`/guilds/${guild.id}/requests/@me`)).body.pending).toBe(false);
    expect(await kit.eventsOf(guild.id, E.GuildMemberUpdate)).toHaveLength(updates);
  });

  it("lets BYPASSES_VERIFICATION exempt a pending member", async () => {
    const { guild, user, join, api } = await screeningSetup();
    const managers = await kit.addRole(guild.id, 1, { permissions: P.ManageRoles });
    await join({ roles: [managers.id] });
    await api.patch(`/guilds/${guild.id}/members/${user.user.id}`, { flags: GuildMemberFlags.BypassesVerification });
    const asUser = createCaller({ db: app.db, userId: user.user.id });
    expect(await asUser.role.create({ guildId: guild.id, body: { name: "exempt" } })).toMatchObject({ name: "exempt" });
  });

  it("does not hold back bots added to a screening guild", async () => {
    const { guild } = await screeningSetup();
    const helper = await kit.addBotWithRole(guild.id, P.ManageRoles, 3);
    expect((await helper.api.get(`/guilds/${guild.id}/members/${helper.user.id}`)).body.pending).toBe(false);
    expect((await helper.api.post(`/guilds/${guild.id}/roles`, { name: "bot made" })).status).toBe(200);
  });

  it("answers completion by a non-member with 10004 and needs a bearer token", async () => {
    const { guild, userApi, api } = await screeningSetup();
    expect((await userApi.put(`/guilds/${guild.id}/requests/@me`)).body.code).toBe(10004);
    expect((await api.put(`/guilds/${guild.id}/requests/@me`)).status).toBe(401);
  });
});

describe("DELETE /guilds/:guildId/members/:userId (kick)", () => {
  it("removes the member with KICK_MEMBERS: Guild Member Remove and an audit entry with the reason", async () => {
    const { guild } = await kit.setup();
    const mod = await kit.addBotWithRole(guild.id, P.KickMembers, 5);
    const target = await kit.addUser(guild.id);
    const res = await mod.api.delete(`/guilds/${guild.id}/members/${target.user.id}`, { headers: { "X-Audit-Log-Reason": "spam%20links" } });
    expect(res.status).toBe(204);
    expect(await kit.memberRow(guild.id, target.user.id)).toBeNull();
    expect(await kit.eventsOf(guild.id, E.GuildMemberRemove)).toEqual([{ guild_id: guild.id, user: expect.objectContaining({ id: target.user.id }) }]);
    expect(await kit.auditOf(guild.id, AuditLogEvent.MemberKick)).toEqual([
      { userId: mod.user.id, targetId: target.user.id, reason: "spam links", changes: null, options: null },
    ]);
    expect((await mod.api.delete(`/guilds/${guild.id}/members/${target.user.id}`)).body.code).toBe(10007);
  });

  it("refuses without KICK_MEMBERS, above the moderator, and on the owner", async () => {
    const { guild, owner } = await kit.setup();
    const mod = await kit.addBotWithRole(guild.id, P.KickMembers, 5);
    const plain = await kit.addBotWithRole(guild.id, P.BanMembers, 6);
    const target = await kit.addUser(guild.id);
    expect((await plain.api.delete(`/guilds/${guild.id}/members/${target.user.id}`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await mod.api.delete(`/guilds/${guild.id}/members/${plain.user.id}`)).body).toEqual(MISSING_PERMISSIONS);
    const peer = await kit.addBot(guild.id, [mod.role.id]);
    expect((await mod.api.delete(`/guilds/${guild.id}/members/${peer.user.id}`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await mod.api.delete(`/guilds/${guild.id}/members/${owner.user.id}`)).body).toEqual(MISSING_PERMISSIONS);
    const admin = await kit.addBotWithRole(guild.id, P.Administrator, 9);
    expect((await admin.api.delete(`/guilds/${guild.id}/members/${owner.user.id}`)).body).toEqual(MISSING_PERMISSIONS);
    expect(await app.db.member.count({ where: { guildId: guild.id } })).toBe(6);
  });

  it("disconnects a kicked member from voice", async () => {
    const { guild, api } = await kit.setup();
    const target = await kit.addUser(guild.id);
    const room = await kit.voiceChannel(guild.id);
    await joinVoice({ db: app.db, actor: null }, { channelId: room.id, userId: target.user.id });
    expect((await api.delete(`/guilds/${guild.id}/members/${target.user.id}`)).status).toBe(204);
    expect(await app.db.voiceState.count({ where: { guildId: guild.id } })).toBe(0);
    expect((await kit.eventsOf(guild.id, E.VoiceStateUpdate)).at(-1)).toMatchObject({ channel_id: null, user_id: target.user.id });
  });
});

describe("DELETE /users/@me/guilds/:guildId (leave)", () => {
  it("lets a member leave (Guild Member Remove), and answers 10004 once they are gone", async () => {
    const { guild } = await kit.setup();
    const member = await kit.addBot(guild.id);
    const res = await member.api.delete(`/users/@me/guilds/${guild.id}`);
    expect(res.status).toBe(204);
    expect(await kit.eventsOf(guild.id, E.GuildMemberRemove)).toEqual([{ guild_id: guild.id, user: expect.objectContaining({ id: member.user.id }) }]);
    expect((await member.api.delete(`/users/@me/guilds/${guild.id}`)).body.code).toBe(10004);
    expect((await member.api.delete(`/users/@me/guilds/${newId()}`)).body.code).toBe(10004);
  });

  it("lets a bot leave but not the owner (400, 50055)", async () => {
    const { guild, api } = await kit.setup();
    const helper = await kit.addBot(guild.id);
    expect((await helper.api.delete(`/users/@me/guilds/${guild.id}`)).status).toBe(204);
    const owner = await api.delete(`/users/@me/guilds/${guild.id}`);
    expect(owner.status).toBe(400);
    expect(owner.body).toEqual({ code: 50055, message: "Invalid Guild" });
  });

  it("is not for OAuth2 applications, whatever their scopes (401); the dashboard user may leave", async () => {
    const { guild } = await kit.setup();
    const member = await makeUser(app.db, ["identify", "guilds", "guilds.join"]);
    await addMember(app.db, guild.id, member.user.id);
    const res = await app.as(bearer(member.token)).delete(`/users/@me/guilds/${guild.id}`);
    expect([res.status, res.body]).toEqual([401, { code: 0, message: "401: Unauthorized" }]);
    const asApplication = { kind: "bearer", userId: member.user.id, applicationId: null, scopes: new Set(["guilds"]) } as const;
    await expect(leaveGuild({ db: app.db, actor: asApplication }, { guildId: guild.id })).rejects.toMatchObject({ code: 0, status: 401 });
    expect(await kit.memberRow(guild.id, member.user.id)).not.toBeNull();

    await leaveGuild({ db: app.db, actor: dashboardActor(member.user.id) }, { guildId: guild.id });
    expect(await kit.memberRow(guild.id, member.user.id)).toBeNull();
  });
});
