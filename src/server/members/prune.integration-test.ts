import { AuditLogEvent, GatewayDispatchEvents as E, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeUser } from "~/test/factories.ts";
import { DAY_MS, MISSING_PERMISSIONS, memberKit } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = memberKit(app);

/** A guild with a moderator bot that may prune (MANAGE_GUILD and KICK_MEMBERS unless told). */
async function setup(permissions: bigint = P.ManageGuild | P.KickMembers) {
  const base = await kit.setup();
  const mod = await kit.addBotWithRole(base.guild.id, permissions, 5);
  const preview = async (query: Record<string, string | number> = {}) => mod.api.get(`/guilds/${base.guild.id}/prune`, { query });
  const prune = async (body: unknown = {}, reason?: string) =>
    mod.api.post(`/guilds/${base.guild.id}/prune`, body, reason ? { headers: { "X-Audit-Log-Reason": reason } } : {});
  /** A member who joined and was last active `days` ago (null: never active), holding `roleIds`. */
  const member = async (days: { joined: number; active: number | null }, roleIds: string[] = []) => {
    const { user } = await makeUser(app.db);
    await addMember(app.db, base.guild.id, user.id, roleIds);
    await kit.updateMember(base.guild.id, user.id, { joinedAt: new Date(Date.now() - days.joined * DAY_MS) });
    await app.db.user.update({ where: { id: user.id }, data: { lastActiveAt: days.active === null ? null : new Date(Date.now() - days.active * DAY_MS) } });
    return user;
  };
  const inactive = (roleIds: string[] = []) => member({ joined: 10, active: 10 }, roleIds);
  const isMember = async (userId: string) => (await kit.memberRow(base.guild.id, userId)) !== null;
  return { ...base, mod, preview, prune, member, inactive, isMember };
}

describe("include_roles: an inactive member is pruned when all their roles are listed", () => {
  it.each([
    { holds: [], listed: [], pruned: true, why: "no roles, no list" },
    { holds: ["a"], listed: [], pruned: false, why: "a role, no list" },
    { holds: ["a"], listed: ["a"], pruned: true, why: "their one role listed" },
    { holds: ["a", "b"], listed: ["a"], pruned: false, why: "one of two roles listed" },
    { holds: ["a", "b"], listed: ["a", "b"], pruned: true, why: "both roles listed" },
    { holds: ["a"], listed: ["a", "b"], pruned: true, why: "more roles listed than held" },
    { holds: [], listed: ["a"], pruned: true, why: "no roles, a list" },
    { holds: ["b"], listed: ["a"], pruned: false, why: "another role listed" },
  ])("$why: pruned=$pruned", async ({ holds, listed, pruned }) => {
    const { guild, preview, prune, inactive, isMember } = await setup();
    const roles = { a: await kit.addRole(guild.id, 1, { name: "a" }), b: await kit.addRole(guild.id, 2, { name: "b" }) };
    const ids = (names: string[]) => names.map((name) => roles[name as "a" | "b"].id);
    const user = await inactive(ids(holds));
    const query: Record<string, string> = listed.length > 0 ? { include_roles: ids(listed).join(",") } : {};
    const count = await preview(query);
    expect(count.status).toBe(200);
    expect(count.body).toEqual({ pruned: pruned ? 1 : 0 });
    const res = await prune({ include_roles: ids(listed) });
    expect(res.body).toEqual({ pruned: pruned ? 1 : 0 });
    expect(await isMember(user.id)).toBe(!pruned);
  });
});

describe("GET /guilds/:guildId/prune", () => {
  it("counts members inactive for more than `days` (default 7), by last activity and join date", async () => {
    const { preview, member } = await setup();
    await member({ joined: 10, active: 10 });
    await member({ joined: 20, active: null });
    await member({ joined: 20, active: 3 });
    await member({ joined: 3, active: null });
    await member({ joined: 40, active: 20 });
    expect((await preview()).body).toEqual({ pruned: 3 });
    expect((await preview({ days: 7 })).body).toEqual({ pruned: 3 });
    expect((await preview({ days: 15 })).body).toEqual({ pruned: 2 });
    expect((await preview({ days: 30 })).body).toEqual({ pruned: 0 });
    expect((await preview({ days: 1 })).body).toEqual({ pruned: 5 });
  });

  it.each([["0"], ["31"], ["x"], ["7.5"]])("refuses days=%s (50035)", async (days) => {
    const { preview } = await setup();
    const res = await preview({ days });
    expect(res.status).toBe(400);
    expect(res.body.errors.days._errors).toHaveLength(1);
  });

  it("refuses include_roles that are not snowflakes (50035)", async () => {
    const { preview } = await setup();
    expect((await preview({ include_roles: "abc" })).body.code).toBe(50035);
  });
});

describe("POST /guilds/:guildId/prune", () => {
  it("removes every inactive member: Guild Member Remove each, one MEMBER_PRUNE audit entry", async () => {
    const { guild, mod, prune, inactive, member, isMember } = await setup();
    const gone = [await inactive(), await inactive(), await inactive()];
    const stays = await member({ joined: 10, active: 1 });
    const res = await prune({ days: 7 }, "spring cleaning");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pruned: 3 });
    for (const user of gone) expect(await isMember(user.id)).toBe(false);
    expect(await isMember(stays.id)).toBe(true);
    const removed = await kit.eventsOf(guild.id, E.GuildMemberRemove);
    expect(removed.map((e) => e.user.id).sort()).toEqual(gone.map((u) => u.id).sort());
    expect(removed.every((e) => e.guild_id === guild.id)).toBe(true);
    expect(await kit.auditOf(guild.id, AuditLogEvent.MemberPrune)).toEqual([
      { userId: mod.user.id, targetId: null, reason: "spring cleaning", changes: null, options: { delete_member_days: "7", members_removed: "3" } },
    ]);
    expect((await prune()).body).toEqual({ pruned: 0 });
  });

  it("answers pruned: null when compute_prune_count is false, and still prunes", async () => {
    const { guild, prune, inactive, isMember } = await setup();
    const user = await inactive();
    const res = await prune({ compute_prune_count: false, days: 9 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pruned: null });
    expect(await isMember(user.id)).toBe(false);
    expect((await kit.auditOf(guild.id, AuditLogEvent.MemberPrune))[0]!.options).toEqual({ delete_member_days: "9", members_removed: "1" });
  });

  it("takes the deprecated body reason when there is no audit header", async () => {
    const { guild, prune } = await setup();
    await prune({ reason: "from the body" });
    expect((await kit.auditOf(guild.id, AuditLogEvent.MemberPrune))[0]!.reason).toBe("from the body");
  });

  it("accepts an empty request and refuses days outside 1-30 (50035)", async () => {
    const { mod, guild, prune, inactive } = await setup();
    await inactive();
    const empty = await mod.api.post(`/guilds/${guild.id}/prune`);
    expect(empty.body).toEqual({ pruned: 1 });
    for (const days of [0, 31, "7"]) {
      const res = await prune({ days });
      expect(res.status).toBe(400);
      expect(res.body.errors.days._errors).toHaveLength(1);
    }
  });

  it("never prunes the owner", async () => {
    const { guild, owner, prune } = await setup();
    await kit.updateMember(guild.id, owner.user.id, { joinedAt: new Date(Date.now() - 100 * DAY_MS) });
    await app.db.user.update({ where: { id: owner.user.id }, data: { lastActiveAt: new Date(Date.now() - 100 * DAY_MS) } });
    expect((await prune({ days: 30 })).body).toEqual({ pruned: 0 });
    expect(await kit.memberRow(guild.id, owner.user.id)).not.toBeNull();
  });
});

describe("prune permissions", () => {
  it.each([
    ["MANAGE_GUILD only", P.ManageGuild],
    ["KICK_MEMBERS only", P.KickMembers],
  ])("refuses %s (50013) on both endpoints", async (_name, permissions) => {
    const { preview, prune, inactive, isMember } = await setup(permissions);
    const user = await inactive();
    expect((await preview()).body).toEqual(MISSING_PERMISSIONS);
    expect((await prune()).body).toEqual(MISSING_PERMISSIONS);
    expect(await isMember(user.id)).toBe(true);
  });

  it("needs ADMINISTRATOR for both endpoints when PRUNE_REQUIRES_ADMIN is set", async () => {
    const { guild, preview, prune, inactive, isMember } = await setup();
    await kit.setFeatures(guild.id, ["PRUNE_REQUIRES_ADMIN"]);
    const user = await inactive();
    expect((await preview()).body).toEqual(MISSING_PERMISSIONS);
    expect((await prune()).body).toEqual(MISSING_PERMISSIONS);
    const admin = await kit.addBotWithRole(guild.id, P.Administrator, 8);
    expect((await admin.api.get(`/guilds/${guild.id}/prune`)).body).toEqual({ pruned: 1 });
    expect((await admin.api.post(`/guilds/${guild.id}/prune`, {})).body).toEqual({ pruned: 1 });
    expect(await isMember(user.id)).toBe(false);
  });

  it("never counts nor removes a member the moderator could not kick (role not below theirs)", async () => {
    const { guild, mod, preview, prune, inactive, isMember } = await setup();
    const above = await kit.addRole(guild.id, 9, { permissions: P.Administrator, name: "admins" });
    const level = await kit.addRole(guild.id, 6, { name: "seniors" });
    const below = await kit.addRole(guild.id, 2, { name: "regulars" });
    const admin = await inactive([above.id]);
    const senior = await inactive([level.id, below.id]);
    const regular = await inactive([below.id]);
    const include_roles = [above.id, level.id, below.id];

    expect((await preview({ include_roles: include_roles.join(",") })).body).toEqual({ pruned: 1 });
    const dashboardUser = (await makeUser(app.db)).user;
    await addMember(app.db, guild.id, dashboardUser.id, [mod.role.id]);
    const dashboard = createCaller({ db: app.db, userId: dashboardUser.id });
    expect(await dashboard.member.prunePreview({ guildId: guild.id, prune: { days: 7, include_roles } })).toEqual({ pruned: 1 });

    expect((await prune({ include_roles })).body).toEqual({ pruned: 1 });
    expect([await isMember(admin.id), await isMember(senior.id), await isMember(regular.id)]).toEqual([true, true, false]);
    expect(await dashboard.member.prune({ guildId: guild.id, prune: { days: 7, include_roles } })).toEqual({ pruned: 0 });
    expect([await isMember(admin.id), await isMember(senior.id)]).toEqual([true, true]);
  });

  it("is for members of the guild", async () => {
    const { guild } = await setup();
    const outsider = await kit.setup();
    expect((await outsider.api.get(`/guilds/${guild.id}/prune`)).body.code).toBe(50001);
  });
});
