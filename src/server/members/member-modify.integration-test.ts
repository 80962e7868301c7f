import { AuditLogEvent, ChannelType, GatewayDispatchEvents as E, GuildMemberFlags, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { newId } from "~/server/snowflake/snowflake.ts";
import { writeGuildState } from "~/test/factories.ts";
import { DAY_MS, MISSING_PERMISSIONS, memberKit } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { joinVoice } from "./voice.service.ts";

const app = useTestApp();
const kit = memberKit(app);

const NOT_IN_VOICE = { code: 40032, message: "Target user is not connected to voice." };

/** A guild, a moderator bot with `permissions` at position 5, and a user member below it. */
async function setup(permissions: bigint) {
  const base = await kit.setup();
  const mod = await kit.addBotWithRole(base.guild.id, permissions, 5);
  const low = await kit.addRole(base.guild.id, 2, { name: "low" });
  const target = await kit.addUser(base.guild.id, [low.id]);
  const patch = (body: unknown, reason?: string) =>
    mod.api.patch(`/guilds/${base.guild.id}/members/${target.user.id}`, body, reason ? { headers: { "X-Audit-Log-Reason": reason } } : {});
  return { ...base, mod, low, target, patch };
}

describe("PATCH /guilds/:guildId/members/:userId nick", () => {
  it("sets and resets a nickname with MANAGE_NICKNAMES, with its event and audit entry", async () => {
    const { guild, mod, target, patch } = await setup(P.ManageNicknames);
    const res = await patch({ nick: "Nicky" }, "new name");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ nick: "Nicky", user: { id: target.user.id } });
    const [event] = await kit.eventsOf(guild.id, E.GuildMemberUpdate);
    expect(event).toMatchObject({ guild_id: guild.id, nick: "Nicky", user: { id: target.user.id } });
    expect(await kit.auditOf(guild.id, AuditLogEvent.MemberUpdate)).toEqual([
      { userId: mod.user.id, targetId: target.user.id, reason: "new name", changes: [{ key: "nick", new_value: "Nicky" }], options: null },
    ]);
    expect((await patch({ nick: "" })).body.nick).toBeNull();
    await patch({ nick: "Again" });
    expect((await patch({ nick: null })).body.nick).toBeNull();
  });

  it("refuses without MANAGE_NICKNAMES, above the moderator, on the owner and past 32 characters", async () => {
    const { guild, owner, mod, patch } = await setup(P.ManageNicknames);
    const without = await setup(P.KickMembers);
    expect((await without.patch({ nick: "x" })).body).toEqual(MISSING_PERMISSIONS);
    const high = await kit.addRole(guild.id, 9);
    const above = await kit.addUser(guild.id, [high.id]);
    expect((await mod.api.patch(`/guilds/${guild.id}/members/${above.user.id}`, { nick: "x" })).status).toBe(403);
    expect((await mod.api.patch(`/guilds/${guild.id}/members/${owner.user.id}`, { nick: "x" })).status).toBe(403);
    const long = await patch({ nick: "x".repeat(33) });
    expect(long.status).toBe(400);
    expect(long.body.errors.nick._errors[0].code).toBe("BASE_TYPE_MAX_LENGTH");
  });

  it("answers 10007 for a non-member and 10013 for an unknown user", async () => {
    const { guild, mod } = await setup(P.ManageNicknames);
    expect((await mod.api.patch(`/guilds/${guild.id}/members/${newId()}`, { nick: "x" })).body.code).toBe(10013);
    const { target } = await setup(0n);
    expect((await mod.api.patch(`/guilds/${guild.id}/members/${target.user.id}`, { nick: "x" })).body.code).toBe(10007);
  });
});

describe("PATCH /guilds/:guildId/members/:userId roles", () => {
  it("replaces the roles with MANAGE_ROLES and audits $add and $remove", async () => {
    const { guild, mod, low, target, patch } = await setup(P.ManageRoles);
    const other = await kit.addRole(guild.id, 3, { name: "other" });
    const res = await patch({ roles: [other.id] }, "reshuffle");
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual([other.id]);
    expect(await kit.auditOf(guild.id, AuditLogEvent.MemberRoleUpdate)).toEqual([
      {
        userId: mod.user.id,
        targetId: target.user.id,
        reason: "reshuffle",
        options: null,
        changes: [
          { key: "$add", new_value: [{ id: other.id, name: "other" }] },
          { key: "$remove", new_value: [{ id: low.id, name: "low" }] },
        ],
      },
    ]);
    expect((await kit.eventsOf(guild.id, E.GuildMemberUpdate)).at(-1)!.roles).toEqual([other.id]);
    expect((await patch({ roles: null })).body.roles).toEqual([]);
  });

  it("lets nobody add or remove a role at or above their own highest role", async () => {
    const { guild, mod, target, patch } = await setup(P.ManageRoles);
    const high = await kit.addRole(guild.id, 7);
    expect((await patch({ roles: [high.id] })).body).toEqual(MISSING_PERMISSIONS);
    expect((await patch({ roles: [mod.role.id] })).body).toEqual(MISSING_PERMISSIONS);
    // A role above the moderator the target already holds cannot be taken away either.
    await writeGuildState(app.db, guild.id, (tx) => tx.memberRole.create({ data: { guildId: guild.id, userId: target.user.id, roleId: high.id } }));
    expect((await patch({ roles: [] })).body).toEqual(MISSING_PERMISSIONS);
    expect((await kit.memberRow(guild.id, target.user.id))!.roles).toHaveLength(2);
  });

  it("refuses managed roles and @everyone (50028), unknown roles and callers without MANAGE_ROLES", async () => {
    const { guild, patch } = await setup(P.ManageRoles);
    const managed = await kit.addRole(guild.id, 1, { managed: true });
    expect((await patch({ roles: [managed.id] })).body).toEqual({ code: 50028, message: "Invalid Role" });
    expect((await patch({ roles: [guild.id] })).body.code).toBe(50028);
    expect((await patch({ roles: [newId()] })).body.code).toBe(10011);
    expect((await (await setup(P.ManageNicknames)).patch({ roles: [] })).body).toEqual(MISSING_PERMISSIONS);
  });

  it("lets the owner give any role", async () => {
    const { guild, api, target } = await setup(0n);
    const top = await kit.addRole(guild.id, 50, { permissions: P.Administrator });
    const res = await api.patch(`/guilds/${guild.id}/members/${target.user.id}`, { roles: [top.id] });
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual([top.id]);
  });
});

describe("PATCH /guilds/:guildId/members/:userId voice", () => {
  async function voiceSetup(permissions: bigint) {
    const s = await setup(permissions);
    const room = await kit.voiceChannel(s.guild.id);
    return { ...s, room, connect: () => joinVoice({ db: app.db, actor: null }, { channelId: room.id, userId: s.target.user.id }) };
  }

  it("mutes and deafens a member in voice, with a voice state update", async () => {
    const { guild, target, patch, connect } = await voiceSetup(P.MuteMembers | P.DeafenMembers);
    await connect();
    const res = await patch({ mute: true, deaf: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mute: true, deaf: true });
    expect((await kit.eventsOf(guild.id, E.VoiceStateUpdate)).at(-1)).toMatchObject({ user_id: target.user.id, mute: true, deaf: true });
    expect((await kit.auditOf(guild.id, AuditLogEvent.MemberUpdate))[0]!.changes).toEqual([
      { key: "mute", old_value: false, new_value: true },
      { key: "deaf", old_value: false, new_value: true },
    ]);
    expect((await patch({ mute: false })).body.mute).toBe(false);
  });

  it("answers 400 (40032) when the member is not in voice", async () => {
    const { patch } = await voiceSetup(P.MuteMembers | P.DeafenMembers | P.MoveMembers);
    for (const body of [{ mute: true }, { deaf: true }, { channel_id: null }]) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(NOT_IN_VOICE);
    }
  });

  it("needs MUTE_MEMBERS for mute and DEAFEN_MEMBERS for deaf", async () => {
    const mute = await voiceSetup(P.DeafenMembers);
    await mute.connect();
    expect((await mute.patch({ mute: true })).body).toEqual(MISSING_PERMISSIONS);
    const deaf = await voiceSetup(P.MuteMembers);
    await deaf.connect();
    expect((await deaf.patch({ deaf: true })).body).toEqual(MISSING_PERMISSIONS);
  });

  it("moves a member with MOVE_MEMBERS and CONNECT on the target, and disconnects with null", async () => {
    const { guild, target, mod, patch, connect } = await voiceSetup(P.MoveMembers);
    await connect();
    const other = await kit.voiceChannel(guild.id);
    expect((await patch({ channel_id: other.id })).status).toBe(200);
    expect((await kit.eventsOf(guild.id, E.VoiceStateUpdate)).at(-1)).toMatchObject({ channel_id: other.id, user_id: target.user.id });
    expect(await app.db.voiceState.findUnique({ where: { guildId_userId: { guildId: guild.id, userId: target.user.id } } })).toMatchObject({
      channelId: other.id,
    });
    const locked = await kit.voiceChannel(guild.id, [{ id: mod.role.id, type: 0, deny: P.Connect }]);
    expect((await patch({ channel_id: locked.id })).body).toEqual(MISSING_PERMISSIONS);
    // MOVE_MEMBERS is a voice channel permission: an overwrite on the target can take it away.
    const noMoves = await kit.voiceChannel(guild.id, [{ id: mod.role.id, type: 0, deny: P.MoveMembers }]);
    expect((await patch({ channel_id: noMoves.id })).body).toEqual(MISSING_PERMISSIONS);
    expect((await patch({ channel_id: null })).status).toBe(200);
    expect((await kit.eventsOf(guild.id, E.VoiceStateUpdate)).at(-1)).toMatchObject({ channel_id: null, user_id: target.user.id });
    expect(await app.db.voiceState.count({ where: { guildId: guild.id } })).toBe(0);
  });

  it("refuses moves without MOVE_MEMBERS, to text channels and to unknown channels", async () => {
    const without = await voiceSetup(P.MuteMembers);
    await without.connect();
    expect((await without.patch({ channel_id: null })).body).toEqual(MISSING_PERMISSIONS);
    const { guild, patch, connect } = await voiceSetup(P.MoveMembers);
    await connect();
    const text = await writeGuildState(app.db, guild.id, (tx) =>
      tx.channel.create({ data: { id: newId(), guildId: guild.id, name: "t", type: ChannelType.GuildText } }),
    );
    expect((await patch({ channel_id: text.id })).body.code).toBe(50035);
    expect((await patch({ channel_id: newId() })).body.code).toBe(10003);
  });
});

describe("PATCH /guilds/:guildId/members/:userId communication_disabled_until", () => {
  it("times a member out with MODERATE_MEMBERS and removes it with null", async () => {
    const { guild, patch } = await setup(P.ModerateMembers);
    const until = new Date(Date.now() + DAY_MS).toISOString();
    const res = await patch({ communication_disabled_until: until }, "cool off");
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.communication_disabled_until)).toBe(Date.parse(until));
    const [entry] = await kit.auditOf(guild.id, AuditLogEvent.MemberUpdate);
    expect(entry).toMatchObject({ reason: "cool off", changes: [{ key: "communication_disabled_until", new_value: res.body.communication_disabled_until }] });
    expect((await patch({ communication_disabled_until: null })).body.communication_disabled_until).toBeNull();
  });

  it("allows at most 28 days ahead (50035) and only timestamps", async () => {
    const { patch } = await setup(P.ModerateMembers);
    expect((await patch({ communication_disabled_until: new Date(Date.now() + 27.9 * DAY_MS).toISOString() })).status).toBe(200);
    const far = await patch({ communication_disabled_until: new Date(Date.now() + 29 * DAY_MS).toISOString() });
    expect(far.status).toBe(400);
    expect(far.body.errors.communication_disabled_until._errors).toHaveLength(1);
    expect((await patch({ communication_disabled_until: "tomorrow" })).body.code).toBe(50035);
  });

  it("answers 403 (50013) on an administrator, the owner, and without MODERATE_MEMBERS", async () => {
    const { guild, owner, mod } = await setup(P.ModerateMembers);
    const admin = await kit.addRole(guild.id, 1, { permissions: P.Administrator });
    const adminMember = await kit.addUser(guild.id, [admin.id]);
    const until = new Date(Date.now() + DAY_MS).toISOString();
    for (const userId of [adminMember.user.id, owner.user.id]) {
      const res = await mod.api.patch(`/guilds/${guild.id}/members/${userId}`, { communication_disabled_until: until });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(MISSING_PERMISSIONS);
    }
    expect((await (await setup(P.KickMembers)).patch({ communication_disabled_until: until })).body).toEqual(MISSING_PERMISSIONS);
    const peer = await kit.addBot(guild.id, [mod.role.id]);
    expect((await mod.api.patch(`/guilds/${guild.id}/members/${peer.user.id}`, { communication_disabled_until: until })).body).toEqual(MISSING_PERMISSIONS);
  });

  it("limits what a timed-out member may do until the timeout ends", async () => {
    const { guild, api, mod } = await setup(P.ManageRoles);
    const createRole = () => mod.api.post(`/guilds/${guild.id}/roles`, { name: "made" });
    expect((await createRole()).status).toBe(200);
    const until = new Date(Date.now() + DAY_MS).toISOString();
    expect((await api.patch(`/guilds/${guild.id}/members/${mod.user.id}`, { communication_disabled_until: until })).status).toBe(200);
    expect((await createRole()).body).toEqual(MISSING_PERMISSIONS);
    expect((await mod.api.get(`/guilds/${guild.id}/roles`)).status).toBe(200);
    await api.patch(`/guilds/${guild.id}/members/${mod.user.id}`, { communication_disabled_until: null });
    expect((await createRole()).status).toBe(200);
  });
});

describe("PATCH /guilds/:guildId/members/:userId flags", () => {
  it("changes only BYPASSES_VERIFICATION and keeps the flags the service sets", async () => {
    const { guild, target, patch } = await setup(P.ManageGuild);
    await kit.updateMember(guild.id, target.user.id, { flags: GuildMemberFlags.DidRejoin });
    const set = await patch({ flags: GuildMemberFlags.BypassesVerification | GuildMemberFlags.CompletedOnboarding });
    expect(set.status).toBe(200);
    expect(set.body.flags).toBe(GuildMemberFlags.DidRejoin | GuildMemberFlags.BypassesVerification);
    expect((await patch({ flags: 0 })).body.flags).toBe(GuildMemberFlags.DidRejoin);
  });

  it.each([
    ["MANAGE_GUILD", P.ManageGuild, 200],
    ["MANAGE_ROLES", P.ManageRoles, 200],
    ["MODERATE, KICK and BAN", P.ModerateMembers | P.KickMembers | P.BanMembers, 200],
    ["MODERATE and KICK only", P.ModerateMembers | P.KickMembers, 403],
    ["MANAGE_NICKNAMES", P.ManageNicknames, 403],
  ])("with %s answers %i", async (_name, permissions, status) => {
    const { patch } = await setup(permissions);
    const res = await patch({ flags: GuildMemberFlags.BypassesVerification });
    expect(res.status).toBe(status);
    if (status === 200) expect(res.body.flags).toBe(GuildMemberFlags.BypassesVerification);
  });
});

describe("PATCH /guilds/:guildId/members/:userId", () => {
  it("sets several fields in one request, each with its permission", async () => {
    const { guild, low, patch } = await setup(P.ManageNicknames | P.ManageRoles | P.ModerateMembers);
    const res = await patch({ nick: "All", roles: [], communication_disabled_until: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ nick: "All", roles: [], communication_disabled_until: null });
    expect((await kit.auditOf(guild.id, AuditLogEvent.MemberRoleUpdate))[0]!.changes).toEqual([{ key: "$remove", new_value: [{ id: low.id, name: "low" }] }]);
    // A field without its permission refuses the whole request.
    const partial = await patch({ nick: "Half", flags: 4, mute: true });
    expect(partial.status).toBe(403);
    expect((await kit.memberRow(guild.id, res.body.user.id))!.nick).toBe("All");
  });

  it("accepts an empty body", async () => {
    const { patch } = await setup(0n);
    expect((await patch({})).status).toBe(200);
  });
});

describe("PUT and DELETE /guilds/:guildId/members/:userId/roles/:roleId", () => {
  it("gives and takes one role (204), idempotently, with events and audit entries", async () => {
    const { guild, mod, low, target } = await setup(P.ManageRoles);
    const other = await kit.addRole(guild.id, 3, { name: "other" });
    const path = `/guilds/${guild.id}/members/${target.user.id}/roles/${other.id}`;
    const reason = { headers: { "X-Audit-Log-Reason": "promoted" } };
    const put = await mod.api.put(path, undefined, reason);
    expect(put.status).toBe(204);
    expect((await kit.memberRow(guild.id, target.user.id))!.roles.map((r) => r.roleId).sort()).toEqual([low.id, other.id].sort());
    expect((await mod.api.put(path)).status).toBe(204);
    expect(await kit.auditOf(guild.id, AuditLogEvent.MemberRoleUpdate)).toEqual([
      {
        userId: mod.user.id,
        targetId: target.user.id,
        reason: "promoted",
        options: null,
        changes: [{ key: "$add", new_value: [{ id: other.id, name: "other" }] }],
      },
    ]);
    expect((await kit.eventsOf(guild.id, E.GuildMemberUpdate)).at(-1)!.roles).toContain(other.id);
    expect((await mod.api.delete(path)).status).toBe(204);
    expect((await mod.api.delete(path)).status).toBe(204);
    expect((await kit.memberRow(guild.id, target.user.id))!.roles.map((r) => r.roleId)).toEqual([low.id]);
    expect((await kit.auditOf(guild.id, AuditLogEvent.MemberRoleUpdate)).at(-1)!.changes).toEqual([
      { key: "$remove", new_value: [{ id: other.id, name: "other" }] },
    ]);
    expect(await kit.eventsOf(guild.id, E.GuildMemberUpdate)).toHaveLength(2);
  });

  it("keeps to the hierarchy and refuses @everyone, managed roles and callers without MANAGE_ROLES", async () => {
    const { guild, mod, target } = await setup(P.ManageRoles);
    const path = (roleId: string, userId = target.user.id) => `/guilds/${guild.id}/members/${userId}/roles/${roleId}`;
    const high = await kit.addRole(guild.id, 8);
    expect((await mod.api.put(path(high.id))).body).toEqual(MISSING_PERMISSIONS);
    expect((await mod.api.put(path(mod.role.id))).body).toEqual(MISSING_PERMISSIONS);
    expect((await mod.api.put(path(guild.id))).body.code).toBe(50028);
    expect((await mod.api.delete(path(guild.id))).body.code).toBe(50028);
    expect((await mod.api.delete(path(high.id))).body).toEqual(MISSING_PERMISSIONS);
    const managed = await kit.addRole(guild.id, 1, { managed: true });
    expect((await mod.api.put(path(managed.id))).body.code).toBe(50028);
    expect((await mod.api.put(path(newId()))).body.code).toBe(10011);
    expect((await mod.api.put(path(high.id, newId()))).body.code).toBe(10013);
    const plain = await kit.addBotWithRole(guild.id, P.KickMembers, 6);
    const low = await kit.addRole(guild.id, 1);
    expect((await plain.api.put(path(low.id))).body).toEqual(MISSING_PERMISSIONS);
    expect((await plain.api.delete(path(low.id))).body).toEqual(MISSING_PERMISSIONS);
  });
});
