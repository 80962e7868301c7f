import { AuditLogEvent, GatewayDispatchEvents as E, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createBearerToken } from "~/server/auth/tokens.service.ts";
import { ApiError } from "~/server/errors.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addMember, makeUser, writeGuildState } from "~/test/factories.ts";
import { MISSING_PERMISSIONS, memberKit } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { addGuildMember } from "./member.service.ts";

const app = useTestApp();
const kit = memberKit(app);

const UNKNOWN_BAN = { code: 10026, message: "Unknown Ban" };

/** A guild with a moderator bot holding `permissions` at position 5. */
async function setup(permissions: bigint = P.BanMembers) {
  const base = await kit.setup();
  const mod = await kit.addBotWithRole(base.guild.id, permissions, 5);
  return {
    ...base,
    mod,
    ban: (userId: string, body?: unknown, reason?: string) =>
      mod.api.put(`/guilds/${base.guild.id}/bans/${userId}`, body, reason ? { headers: { "X-Audit-Log-Reason": reason } } : {}),
  };
}

describe("GET /guilds/:guildId/bans", () => {
  let series = 0;
  async function withBans() {
    const s = await setup();
    // Ids of different lengths: text order would differ from numeric order (a new leading digit per guild).
    const lead = String(++series);
    const [a, b, c, d] = ["5", "40", "300", "2000"].map((id) => lead + id) as [string, string, string, string];
    for (const id of [d, a, c, b]) {
      await app.db.user.create({ data: { id, username: `banned_${id}` } });
      expect((await s.ban(id)).status).toBe(204);
    }
    const list = async (query: Record<string, string | number> = {}) => {
      const res = await s.mod.api.get(`/guilds/${s.guild.id}/bans`, { query });
      expect(res.status).toBe(200);
      return (res.body as any[]).map((b) => b.user.id as string);
    };
    return { ...s, list, ids: { a, b, c, d } };
  }

  it("lists ban objects in numeric user id order", async () => {
    const { mod, guild, list, ids } = await withBans();
    expect(await list()).toEqual([ids.a, ids.b, ids.c, ids.d]);
    const res = await mod.api.get(`/guilds/${guild.id}/bans`, { query: { limit: 1 } });
    expect(res.body).toEqual([{ user: expect.objectContaining({ id: ids.a, username: `banned_${ids.a}` }), reason: null }]);
  });

  it("pages with after and before", async () => {
    const { list, ids } = await withBans();
    const { a, b, c, d } = ids;
    expect(await list({ limit: 2 })).toEqual([a, b]);
    expect(await list({ limit: 2, after: b })).toEqual([c, d]);
    expect(await list({ after: d })).toEqual([]);
    expect(await list({ before: c })).toEqual([a, b]);
    expect(await list({ before: d, limit: 2 })).toEqual([b, c]);
    expect(await list({ after: a, before: d })).toEqual([b, c]);
  });

  it("returns at most 1000 by default and refuses limits outside 1-1000 (50035)", async () => {
    const { guild, mod, owner } = await setup();
    await writeGuildState(app.db, guild.id, async (tx) => {
      await tx.$executeRaw`INSERT INTO "User" ("id", "username", "createdAt")
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1001)
        SELECT CAST(700000000000000000 + i AS TEXT), 'banned_' || CAST(i AS TEXT), (SELECT "createdAt" FROM "User" WHERE "id" = ${owner.user.id}) FROM n`;
      await tx.$executeRaw`INSERT INTO "Ban" ("guildId", "userId", "createdAt")
        SELECT ${guild.id}, u."id", (SELECT "createdAt" FROM "User" WHERE "id" = ${owner.user.id}) FROM "User" u WHERE u."id" LIKE '7000%'`;
    });
    const all = await mod.api.get(`/guilds/${guild.id}/bans`);
    expect(all.body).toHaveLength(1000);
    expect((await mod.api.get(`/guilds/${guild.id}/bans`, { query: { limit: 1000, after: all.body[999].user.id } })).body).toHaveLength(1);
    for (const limit of ["0", "1001", "x"]) expect((await mod.api.get(`/guilds/${guild.id}/bans`, { query: { limit } })).body.code).toBe(50035);
  });

  it("needs BAN_MEMBERS", async () => {
    const { guild } = await setup();
    const plain = await kit.addBotWithRole(guild.id, P.KickMembers, 6);
    expect((await plain.api.get(`/guilds/${guild.id}/bans`)).body).toEqual(MISSING_PERMISSIONS);
  });
});

describe("GET /guilds/:guildId/bans/:userId", () => {
  it("returns one ban with its reason, or 10026", async () => {
    const { guild, mod, ban } = await setup();
    const user = await makeUser(app.db);
    expect((await mod.api.get(`/guilds/${guild.id}/bans/${user.user.id}`)).body).toEqual(UNKNOWN_BAN);
    await ban(user.user.id, undefined, "raids");
    const res = await mod.api.get(`/guilds/${guild.id}/bans/${user.user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: expect.objectContaining({ id: user.user.id }), reason: "raids" });
  });
});

describe("PUT /guilds/:guildId/bans/:userId", () => {
  it("bans and removes a member: Guild Member Remove, Guild Ban Add, audit entry with the reason", async () => {
    const { guild, mod, ban } = await setup();
    const target = await kit.addUser(guild.id);
    const res = await ban(target.user.id, { delete_message_seconds: 3600 }, "spamming");
    expect(res.status).toBe(204);
    expect(await kit.memberRow(guild.id, target.user.id)).toBeNull();
    expect(await kit.eventsOf(guild.id, E.GuildMemberRemove)).toEqual([{ guild_id: guild.id, user: expect.objectContaining({ id: target.user.id }) }]);
    expect(await kit.eventsOf(guild.id, E.GuildBanAdd)).toEqual([{ guild_id: guild.id, user: expect.objectContaining({ id: target.user.id }) }]);
    expect(await kit.auditOf(guild.id, AuditLogEvent.MemberBanAdd)).toEqual([
      { userId: mod.user.id, targetId: target.user.id, reason: "spamming", changes: null, options: null },
    ]);
    // Banning again changes nothing.
    expect((await ban(target.user.id)).status).toBe(204);
    expect(await kit.eventsOf(guild.id, E.GuildBanAdd)).toHaveLength(1);
  });

  it("bans a user who is not a member (no Guild Member Remove)", async () => {
    const { guild, ban } = await setup();
    const user = await makeUser(app.db);
    expect((await ban(user.user.id)).status).toBe(204);
    expect(await kit.eventsOf(guild.id, E.GuildBanAdd)).toHaveLength(1);
    expect(await kit.eventsOf(guild.id, E.GuildMemberRemove)).toHaveLength(0);
    expect((await ban(newId())).body.code).toBe(10013);
  });

  it.each([[-1], [604_801], ["3600"], [1.5]])("refuses delete_message_seconds %s (50035)", async (value) => {
    const { ban } = await setup();
    const user = await makeUser(app.db);
    const res = await ban(user.user.id, { delete_message_seconds: value });
    expect(res.status).toBe(400);
    expect(res.body.errors.delete_message_seconds._errors).toHaveLength(1);
  });

  it("accepts delete_message_seconds from 0 to 604800", async () => {
    const { ban } = await setup();
    for (const value of [0, 604_800]) expect((await ban((await makeUser(app.db)).user.id, { delete_message_seconds: value })).status).toBe(204);
  });

  it("refuses without BAN_MEMBERS, members not below the moderator, and the owner", async () => {
    const { guild, owner, mod, ban } = await setup();
    const peer = await kit.addBot(guild.id, [mod.role.id]);
    expect((await ban(peer.user.id)).body).toEqual(MISSING_PERMISSIONS);
    expect((await ban(owner.user.id)).body).toEqual(MISSING_PERMISSIONS);
    const plain = await kit.addBotWithRole(guild.id, P.KickMembers, 1);
    const user = await makeUser(app.db);
    expect((await plain.api.put(`/guilds/${guild.id}/bans/${user.user.id}`)).body).toEqual(MISSING_PERMISSIONS);
    expect(await app.db.ban.count({ where: { guildId: guild.id } })).toBe(0);
  });
});

describe("DELETE /guilds/:guildId/bans/:userId", () => {
  it("lifts a ban (Guild Ban Remove, audit entry), then answers 10026", async () => {
    const { guild, mod, ban } = await setup();
    const user = await makeUser(app.db);
    await ban(user.user.id);
    const res = await mod.api.delete(`/guilds/${guild.id}/bans/${user.user.id}`, { headers: { "X-Audit-Log-Reason": "forgiven" } });
    expect(res.status).toBe(204);
    expect(await kit.eventsOf(guild.id, E.GuildBanRemove)).toEqual([{ guild_id: guild.id, user: expect.objectContaining({ id: user.user.id }) }]);
    expect(await kit.auditOf(guild.id, AuditLogEvent.MemberBanRemove)).toEqual([
      { userId: mod.user.id, targetId: user.user.id, reason: "forgiven", changes: null, options: null },
    ]);
    expect((await mod.api.delete(`/guilds/${guild.id}/bans/${user.user.id}`)).body).toEqual(UNKNOWN_BAN);
    // An unbanned user may join again.
    await addMember(app.db, guild.id, user.user.id);
    expect(await kit.memberRow(guild.id, user.user.id)).not.toBeNull();
  });

  it("needs BAN_MEMBERS", async () => {
    const { guild, ban } = await setup();
    const user = await makeUser(app.db);
    await ban(user.user.id);
    const plain = await kit.addBotWithRole(guild.id, P.KickMembers, 6);
    expect((await plain.api.delete(`/guilds/${guild.id}/bans/${user.user.id}`)).body).toEqual(MISSING_PERMISSIONS);
  });
});

describe("POST /guilds/:guildId/bulk-ban", () => {
  it("bans whom it can and names the others", async () => {
    const { guild, owner, mod, ban } = await setup(P.BanMembers | P.ManageGuild);
    const member = await kit.addUser(guild.id);
    const outsider = await makeUser(app.db);
    const already = await makeUser(app.db);
    await ban(already.user.id);
    const peer = await kit.addBot(guild.id, [mod.role.id]);
    const unknown = newId();
    const ids = [member.user.id, outsider.user.id, already.user.id, peer.user.id, owner.user.id, unknown];
    const res = await mod.api.post(
      `/guilds/${guild.id}/bulk-ban`,
      { user_ids: ids, delete_message_seconds: 60 },
      { headers: { "X-Audit-Log-Reason": "raid" } },
    );
    expect(res.status).toBe(200);
    expect(res.body.banned_users.sort()).toEqual([member.user.id, outsider.user.id].sort());
    expect(res.body.failed_users.sort()).toEqual([already.user.id, peer.user.id, owner.user.id, unknown].sort());
    expect(await kit.memberRow(guild.id, member.user.id)).toBeNull();
    expect(await kit.eventsOf(guild.id, E.GuildBanAdd)).toHaveLength(3);
    expect((await kit.eventsOf(guild.id, E.GuildMemberRemove)).map((e) => e.user.id)).toEqual([member.user.id]);
    expect((await kit.auditOf(guild.id, AuditLogEvent.MemberBanAdd)).filter((e) => e.reason === "raid")).toHaveLength(2);
    expect((await mod.api.get(`/guilds/${guild.id}/bans/${outsider.user.id}`)).body.reason).toBe("raid");
  });

  it("answers 500000 when nobody could be banned", async () => {
    const { guild, owner, mod } = await setup(P.BanMembers | P.ManageGuild);
    const res = await mod.api.post(`/guilds/${guild.id}/bulk-ban`, { user_ids: [owner.user.id, newId()] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 500000, message: "Failed to ban users" });
  });

  it("needs both BAN_MEMBERS and MANAGE_GUILD", async () => {
    for (const permissions of [P.BanMembers, P.ManageGuild]) {
      const { guild, mod } = await setup(permissions);
      const user = await makeUser(app.db);
      expect((await mod.api.post(`/guilds/${guild.id}/bulk-ban`, { user_ids: [user.user.id] })).body).toEqual(MISSING_PERMISSIONS);
    }
  });

  it("takes 1 to 200 user ids (50035)", async () => {
    const { guild, mod } = await setup(P.BanMembers | P.ManageGuild);
    for (const user_ids of [[], Array.from({ length: 201 }, () => newId())]) {
      const res = await mod.api.post(`/guilds/${guild.id}/bulk-ban`, { user_ids });
      expect(res.status).toBe(400);
      expect(res.body.errors.user_ids._errors).toHaveLength(1);
    }
    const max = await mod.api.post(`/guilds/${guild.id}/bulk-ban`, { user_ids: Array.from({ length: 200 }, () => newId()) });
    expect(max.body.code).toBe(500000);
  });
});

describe("a banned user", () => {
  it("cannot rejoin by any path", async () => {
    const { guild, owner, ban } = await setup();
    const user = await makeUser(app.db);
    await addMember(app.db, guild.id, user.user.id);
    await ban(user.user.id);
    const token = await createBearerToken(app.db, { userId: user.user.id, applicationId: owner.application.id, scopes: ["guilds.join"] });
    const put = await app.as(`Bot ${owner.token}`).put(`/guilds/${guild.id}/members/${user.user.id}`, { access_token: token });
    expect(put.body.code).toBe(40007);
    const operator = await addGuildMember({ db: app.db, actor: null }, { guildId: guild.id, userId: user.user.id }).catch((error: unknown) => error);
    expect(operator).toBeInstanceOf(ApiError);
    expect((operator as ApiError).code).toBe(40007);
    expect(await kit.memberRow(guild.id, user.user.id)).toBeNull();
  });
});
