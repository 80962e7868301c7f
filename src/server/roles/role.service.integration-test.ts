import { createHash } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { AuditLogEvent, GatewayDispatchEvents, GuildFeature, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { DEFAULT_EVERYONE_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeBot, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { HOLOGRAPHIC_ROLE_COLORS, ROLE_MAX, ROLE_NAME_MAX } from "./role.schema.ts";

const app = useTestApp();

const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const PNG = `data:image/png;base64,${PNG_BASE64}`;
const UNAUTHORIZED = { code: 0, message: "401: Unauthorized" };
const MISSING_PERMISSIONS = { code: 50013, message: "Missing Permissions" };

/** A guild owned by a fresh bot, with that bot's REST client. */
async function setup() {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  return { owner, guild, api: app.as(bot(owner.token)) };
}

async function addRole(guildId: string, position: number, data: { permissions?: bigint; managed?: boolean; name?: string } = {}) {
  return writeGuildState(app.db, guildId, (tx) =>
    tx.role.create({
      data: { id: newId(), guildId, name: data.name ?? `role ${position}`, position, permissions: data.permissions ?? 0n, managed: data.managed ?? false },
    }),
  );
}

/** A second bot in the guild whose only role has `permissions` at `position`. */
async function addBotWithRole(guildId: string, permissions: bigint, position: number) {
  const member = await makeBot(app.db);
  const role = await addRole(guildId, position, { permissions, name: "bot role" });
  await addMember(app.db, guildId, member.user.id, [role.id]);
  return { ...member, role, api: app.as(bot(member.token)) };
}

async function setFeatures(guildId: string, features: string[]) {
  await writeGuildState(app.db, guildId, (tx) => tx.guild.update({ where: { id: guildId }, data: { features: JSON.stringify(features) } }));
}

async function eventsOf(guildId: string, type: string) {
  const rows = await app.db.event.findMany({ where: { guildId, type }, orderBy: { seq: "asc" } });
  return rows.map((row) => JSON.parse(row.data) as Record<string, any>);
}

async function auditOf(guildId: string, actionType: number) {
  return app.db.auditLogEntry.findMany({ where: { guildId, actionType }, orderBy: { id: "asc" } });
}

describe("GET /guilds/:guildId/roles", () => {
  it("lists every role by position, @everyone first, in the role object shape", async () => {
    const { guild, api } = await setup();
    const high = await addRole(guild.id, 2, { name: "high" });
    const low = await addRole(guild.id, 1, { name: "low" });
    const res = await api.get(`/guilds/${guild.id}/roles`);
    expect(res.status).toBe(200);
    expect(res.body.map((r: { id: string }) => r.id)).toEqual([guild.id, low.id, high.id]);
    expect(res.body[0]).toEqual({
      id: guild.id,
      name: "@everyone",
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      icon: null,
      unicode_emoji: null,
      position: 0,
      permissions: DEFAULT_EVERYONE_PERMISSIONS.toString(),
      permissions_new: DEFAULT_EVERYONE_PERMISSIONS.toString(),
      managed: false,
      mentionable: false,
      flags: 0,
    });
  });

  it("is for members only", async () => {
    const { guild } = await setup();
    const outsider = await makeBot(app.db);
    const res = await app.as(bot(outsider.token)).get(`/guilds/${guild.id}/roles`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(50001);
  });

  it("answers 10004 for an unknown guild", async () => {
    const { api } = await setup();
    const res = await api.get(`/guilds/${newId()}/roles`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 10004, message: "Unknown Guild" });
  });

  it("needs a bot token", async () => {
    const { guild } = await setup();
    const none = await app.as().get(`/guilds/${guild.id}/roles`);
    expect(none.status).toBe(401);
    expect(none.body).toEqual(UNAUTHORIZED);
    const user = await makeUser(app.db);
    const withBearer = await app.as(bearer(user.token)).get(`/guilds/${guild.id}/roles`);
    expect(withBearer.status).toBe(401);
    expect(withBearer.body).toEqual(UNAUTHORIZED);
  });
});

describe("GET /guilds/:guildId/roles/:roleId", () => {
  it("returns one role, or 10011 for an unknown one", async () => {
    const { guild, api } = await setup();
    const role = await addRole(guild.id, 1, { name: "one" });
    const found = await api.get(`/guilds/${guild.id}/roles/${role.id}`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: role.id, name: "one", position: 1 });
    const missing = await api.get(`/guilds/${guild.id}/roles/${newId()}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 10011, message: "Unknown Role" });
  });
});

describe("POST /guilds/:guildId/roles", () => {
  it("creates a role with the platform defaults just above @everyone and shifts the others up", async () => {
    const { guild, api } = await setup();
    const existing = await addRole(guild.id, 1, { name: "existing" });
    const res = await api.post(`/guilds/${guild.id}/roles`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: "new role",
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      icon: null,
      unicode_emoji: null,
      position: 1,
      permissions: DEFAULT_EVERYONE_PERMISSIONS.toString(),
      permissions_new: DEFAULT_EVERYONE_PERMISSIONS.toString(),
      managed: false,
      mentionable: false,
      flags: 0,
    });
    const list = (await api.get(`/guilds/${guild.id}/roles`)).body;
    expect(list.map((r: { id: string; position: number }) => [r.id, r.position])).toEqual([
      [guild.id, 0],
      [res.body.id, 1],
      [existing.id, 2],
    ]);
    expect(await eventsOf(guild.id, GatewayDispatchEvents.GuildRoleCreate)).toEqual([{ guild_id: guild.id, role: res.body }]);
    const updates = await eventsOf(guild.id, GatewayDispatchEvents.GuildRoleUpdate);
    expect(updates).toEqual([{ guild_id: guild.id, role: expect.objectContaining({ id: existing.id, position: 2 }) }]);
  });

  it("stores the given fields; color mirrors colors.primary_color and colors wins over color", async () => {
    const { guild, api } = await setup();
    const res = await api.post(`/guilds/${guild.id}/roles`, {
      name: "Mods",
      permissions: String(P.KickMembers | P.BanMembers),
      color: 0xff0000,
      colors: { primary_color: 0x00ff00 },
      hoist: true,
      mentionable: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Mods",
      permissions: String(P.KickMembers | P.BanMembers),
      color: 0x00ff00,
      colors: { primary_color: 0x00ff00, secondary_color: null, tertiary_color: null },
      hoist: true,
      mentionable: true,
    });
    const legacy = await api.post(`/guilds/${guild.id}/roles`, { color: 0x123456 });
    expect(legacy.body.colors).toEqual({ primary_color: 0x123456, secondary_color: null, tertiary_color: null });
  });

  it("sends permissions_new beside permissions, both the whole bit set past bit 31, in answers and events (spec 9)", async () => {
    const { guild, api } = await setup();
    const wide = String(P.KickMembers | P.SendPolls | P.UseExternalApps);
    const res = await api.post(`/guilds/${guild.id}/roles`, { permissions: wide });
    expect(res.body).toMatchObject({ permissions: wide, permissions_new: wide });
    expect(await eventsOf(guild.id, GatewayDispatchEvents.GuildRoleCreate)).toContainEqual({
      guild_id: guild.id,
      role: expect.objectContaining({ permissions_new: wide }),
    });
    const listed = (await api.get(`/guilds/${guild.id}/roles`)).body.find((r: { id: string }) => r.id === res.body.id);
    expect(listed).toMatchObject({ permissions: wide, permissions_new: wide });
  });

  it("records the audit entry with its reason, readable through the audit log", async () => {
    const { guild, api } = await setup();
    const reason = "set up moderators: ünïcode & spaces";
    const res = await api.post(`/guilds/${guild.id}/roles`, { name: "Mods", hoist: true }, { headers: { "X-Audit-Log-Reason": encodeURIComponent(reason) } });
    const [entry] = await auditOf(guild.id, AuditLogEvent.RoleCreate);
    expect(entry).toMatchObject({ targetId: res.body.id, reason });
    const log = await api.get(`/guilds/${guild.id}/audit-logs`, { query: { action_type: AuditLogEvent.RoleCreate } });
    expect(log.status).toBe(200);
    expect(log.body.audit_log_entries).toHaveLength(1);
    expect(log.body.audit_log_entries[0]).toMatchObject({ action_type: 30, target_id: res.body.id, reason });
    expect(log.body.audit_log_entries[0].changes).toEqual(
      expect.arrayContaining([
        { key: "name", new_value: "Mods" },
        { key: "hoist", new_value: true },
        { key: "permissions", new_value: DEFAULT_EVERYONE_PERMISSIONS.toString() },
      ]),
    );
  });

  it(`rejects a name over ${ROLE_NAME_MAX} characters with 50035`, async () => {
    const { guild, api } = await setup();
    const res = await api.post(`/guilds/${guild.id}/roles`, { name: "x".repeat(ROLE_NAME_MAX + 1) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
    expect(res.body.errors.name._errors[0].code).toBe("BASE_TYPE_BAD_LENGTH");
    expect(await app.db.role.count({ where: { guildId: guild.id } })).toBe(1);
  });

  it("rejects a permissions value that is not a decimal bit string", async () => {
    const { guild, api } = await setup();
    for (const permissions of ["0x8", "-8", "abc", 8]) {
      const res = await api.post(`/guilds/${guild.id}/roles`, { permissions });
      expect(res.status, String(permissions)).toBe(400);
      expect(res.body.code).toBe(50035);
      expect(res.body.errors.permissions._errors[0].code).toBeDefined();
    }
  });

  it("rejects colors out of range", async () => {
    const { guild, api } = await setup();
    const res = await api.post(`/guilds/${guild.id}/roles`, { colors: { primary_color: 0x1000000 } });
    expect(res.status).toBe(400);
    expect(res.body.errors.colors.primary_color._errors[0].code).toBe("NUMBER_TYPE_MAX");
    const legacy = await api.post(`/guilds/${guild.id}/roles`, { color: -1 });
    expect(legacy.body.errors.color._errors[0].code).toBe("NUMBER_TYPE_MIN");
  });

  it("gates gradient and holographic colors behind ENHANCED_ROLE_COLORS", async () => {
    const { guild, api } = await setup();
    const gradient = { primary_color: 0xff0000, secondary_color: 0x0000ff };
    const refused = await api.post(`/guilds/${guild.id}/roles`, { colors: gradient });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(50101);

    await setFeatures(guild.id, [GuildFeature.EnhancedRoleColors]);
    const made = await api.post(`/guilds/${guild.id}/roles`, { colors: gradient });
    expect(made.status).toBe(200);
    expect(made.body.colors).toEqual({ ...gradient, tertiary_color: null });
    expect(made.body.color).toBe(0xff0000);

    const wrongHolo = await api.post(`/guilds/${guild.id}/roles`, { colors: { ...gradient, tertiary_color: 0x00ff00 } });
    expect(wrongHolo.status).toBe(400);
    expect(wrongHolo.body.errors.colors.tertiary_color._errors[0].code).toBe("BASE_TYPE_CHOICES");
    const holo = await api.post(`/guilds/${guild.id}/roles`, { colors: HOLOGRAPHIC_ROLE_COLORS });
    expect(holo.body.colors).toEqual(HOLOGRAPHIC_ROLE_COLORS);
  });

  it("gates icon and unicode_emoji behind ROLE_ICONS and stores the icon on the CDN", async () => {
    const { guild, api } = await setup();
    for (const body of [{ icon: PNG }, { unicode_emoji: "🛡️" }]) {
      const res = await api.post(`/guilds/${guild.id}/roles`, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(50101);
    }
    await setFeatures(guild.id, [GuildFeature.RoleIcons]);
    const withIcon = await api.post(`/guilds/${guild.id}/roles`, { icon: PNG });
    const hash = createHash("md5").update(Buffer.from(PNG_BASE64, "base64")).digest("hex");
    expect(withIcon.body.icon).toBe(hash);
    expect(await app.db.image.findUnique({ where: { path: `role-icons/${withIcon.body.id}/${hash}` } })).not.toBeNull();
    const withEmoji = await api.post(`/guilds/${guild.id}/roles`, { unicode_emoji: "🛡️" });
    expect(withEmoji.body.unicode_emoji).toBe("🛡️");
    const notEmoji = await api.post(`/guilds/${guild.id}/roles`, { unicode_emoji: "shield" });
    expect(notEmoji.body.errors.unicode_emoji._errors[0].code).toBe("BASE_TYPE_INVALID");
  });

  it("rejects image data that is not the declared image", async () => {
    const { guild, api } = await setup();
    await setFeatures(guild.id, [GuildFeature.RoleIcons]);
    const res = await api.post(`/guilds/${guild.id}/roles`, { icon: `data:image/png;base64,${Buffer.from("not a png").toString("base64")}` });
    expect(res.status).toBe(400);
    expect(res.body.errors.icon._errors[0].code).toBe("IMAGE_INVALID");
  });

  it("needs MANAGE_ROLES", async () => {
    const { guild } = await setup();
    const member = await addBotWithRole(guild.id, P.KickMembers, 1);
    const res = await member.api.post(`/guilds/${guild.id}/roles`, { name: "sneaky" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(MISSING_PERMISSIONS);
    expect(await eventsOf(guild.id, GatewayDispatchEvents.GuildRoleCreate)).toEqual([]);
  });

  it("lets a manager grant only permissions they hold; administrators grant any", async () => {
    const { guild } = await setup();
    const manager = await addBotWithRole(guild.id, P.ManageRoles | P.KickMembers, 1);
    const tooMuch = await manager.api.post(`/guilds/${guild.id}/roles`, { permissions: String(P.BanMembers) });
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.body).toEqual(MISSING_PERMISSIONS);
    const held = await manager.api.post(`/guilds/${guild.id}/roles`, { permissions: String(P.KickMembers) });
    expect(held.status).toBe(200);

    const admin = await addBotWithRole(guild.id, P.Administrator, 5);
    const any = await admin.api.post(`/guilds/${guild.id}/roles`, { permissions: String(P.BanMembers | P.ManageGuild) });
    expect(any.status).toBe(200);
  });

  it(`stops at ${ROLE_MAX} roles besides @everyone`, async () => {
    const { guild, api } = await setup();
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.role.createMany({ data: Array.from({ length: ROLE_MAX - 1 }, (_, i) => ({ id: newId(), guildId: guild.id, name: `r${i}`, position: i + 1 })) }),
    );
    expect((await api.post(`/guilds/${guild.id}/roles`)).status).toBe(200);
    const res = await api.post(`/guilds/${guild.id}/roles`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(30005);
  });

  it("answers 10004 for an unknown guild and 401 without a bot token", async () => {
    const { guild, api } = await setup();
    expect((await api.post(`/guilds/${newId()}/roles`, {})).body.code).toBe(10004);
    expect((await app.as().post(`/guilds/${guild.id}/roles`, {})).body).toEqual(UNAUTHORIZED);
    const user = await makeUser(app.db);
    const res = await app.as(bearer(user.token)).post(`/guilds/${guild.id}/roles`, {});
    expect(res.status).toBe(401);
  });
});

describe("PATCH /guilds/:guildId/roles/:roleId", () => {
  it("changes the given fields, audits the difference and fires Guild Role Update", async () => {
    const { guild, api } = await setup();
    const role = await addRole(guild.id, 1, { name: "before", permissions: P.KickMembers });
    const res = await api.patch(
      `/guilds/${guild.id}/roles/${role.id}`,
      { name: "after", color: 0xabcdef },
      { headers: { "X-Audit-Log-Reason": encodeURIComponent("rename it") } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: role.id, name: "after", color: 0xabcdef, permissions: String(P.KickMembers), position: 1 });
    expect(await eventsOf(guild.id, GatewayDispatchEvents.GuildRoleUpdate)).toEqual([{ guild_id: guild.id, role: res.body }]);
    const [entry] = await auditOf(guild.id, AuditLogEvent.RoleUpdate);
    expect(entry).toMatchObject({ targetId: role.id, reason: "rename it" });
    expect(JSON.parse(entry!.changes!)).toEqual([
      { key: "name", old_value: "before", new_value: "after" },
      { key: "color", old_value: 0, new_value: 0xabcdef },
      {
        key: "colors",
        old_value: { primary_color: 0, secondary_color: null, tertiary_color: null },
        new_value: { primary_color: 0xabcdef, secondary_color: null, tertiary_color: null },
      },
    ]);
  });

  it("resets a field to its default on null and leaves absent fields alone", async () => {
    const { guild, api } = await setup();
    await setFeatures(guild.id, [GuildFeature.RoleIcons]);
    const made = (await api.post(`/guilds/${guild.id}/roles`, { name: "styled", hoist: true, mentionable: true, color: 5, icon: PNG })).body;
    const res = await api.patch(`/guilds/${guild.id}/roles/${made.id}`, { name: null, hoist: null, color: null, icon: null });
    expect(res.body).toMatchObject({ name: "new role", hoist: false, color: 0, icon: null, mentionable: true });
  });

  it("a bare color turns a gradient into a solid color", async () => {
    const { guild, api } = await setup();
    await setFeatures(guild.id, [GuildFeature.EnhancedRoleColors]);
    const made = (await api.post(`/guilds/${guild.id}/roles`, { colors: { primary_color: 1, secondary_color: 2 } })).body;
    const res = await api.patch(`/guilds/${guild.id}/roles/${made.id}`, { color: 7 });
    expect(res.body.colors).toEqual({ primary_color: 7, secondary_color: null, tertiary_color: null });
  });

  it("applies only permissions to @everyone; its name and style stay", async () => {
    const { guild, api } = await setup();
    const res = await api.patch(`/guilds/${guild.id}/roles/${guild.id}`, {
      name: "everybody",
      hoist: true,
      color: 0xff0000,
      permissions: String(P.ViewChannel),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: guild.id, name: "@everyone", hoist: false, color: 0, permissions: String(P.ViewChannel), position: 0 });
  });

  it("rejects a name over the limit and gates icons", async () => {
    const { guild, api } = await setup();
    const role = await addRole(guild.id, 1);
    const long = await api.patch(`/guilds/${guild.id}/roles/${role.id}`, { name: "x".repeat(ROLE_NAME_MAX + 1) });
    expect(long.body.errors.name._errors[0].code).toBe("BASE_TYPE_BAD_LENGTH");
    const icon = await api.patch(`/guilds/${guild.id}/roles/${role.id}`, { unicode_emoji: "🔥" });
    expect(icon.body.code).toBe(50101);
  });

  it("needs MANAGE_ROLES", async () => {
    const { guild } = await setup();
    const role = await addRole(guild.id, 1);
    const member = await addBotWithRole(guild.id, P.KickMembers, 5);
    const res = await member.api.patch(`/guilds/${guild.id}/roles/${role.id}`, { name: "mine" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(MISSING_PERMISSIONS);
  });

  it("allows only roles strictly below the caller's top role", async () => {
    const { guild, api } = await setup();
    const below = await addRole(guild.id, 1);
    const manager = await addBotWithRole(guild.id, P.ManageRoles, 2);
    const above = await addRole(guild.id, 3);
    expect((await manager.api.patch(`/guilds/${guild.id}/roles/${below.id}`, { name: "ok" })).status).toBe(200);
    for (const target of [manager.role, above]) {
      const res = await manager.api.patch(`/guilds/${guild.id}/roles/${target.id}`, { name: "no" });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(50013);
    }
    expect((await api.patch(`/guilds/${guild.id}/roles/${above.id}`, { name: "owner may" })).status).toBe(200);
  });

  it("checks only the permissions being added against the caller's", async () => {
    const { guild } = await setup();
    const role = await addRole(guild.id, 1, { permissions: P.BanMembers });
    const manager = await addBotWithRole(guild.id, P.ManageRoles | P.KickMembers, 2);
    const keep = await manager.api.patch(`/guilds/${guild.id}/roles/${role.id}`, { permissions: String(P.BanMembers | P.KickMembers) });
    expect(keep.status).toBe(200);
    const add = await manager.api.patch(`/guilds/${guild.id}/roles/${role.id}`, { permissions: String(P.BanMembers | P.ManageGuild) });
    expect(add.status).toBe(403);
    expect((await app.db.role.findUniqueOrThrow({ where: { id: role.id } })).permissions).toBe(P.BanMembers | P.KickMembers);
  });

  it("answers 10011 for an unknown role and 10004 for an unknown guild", async () => {
    const { guild, api } = await setup();
    const role = await addRole(guild.id, 1);
    const unknownRole = await api.patch(`/guilds/${guild.id}/roles/${newId()}`, { name: "x" });
    expect(unknownRole.status).toBe(404);
    expect(unknownRole.body.code).toBe(10011);
    expect((await api.patch(`/guilds/${newId()}/roles/${role.id}`, { name: "x" })).body.code).toBe(10004);
  });

  it("needs a bot token", async () => {
    const { guild } = await setup();
    const role = await addRole(guild.id, 1);
    expect((await app.as().patch(`/guilds/${guild.id}/roles/${role.id}`, {})).body).toEqual(UNAUTHORIZED);
    const user = await makeUser(app.db);
    expect((await app.as(bearer(user.token)).patch(`/guilds/${guild.id}/roles/${role.id}`, {})).status).toBe(401);
  });
});

describe("PATCH /guilds/:guildId/roles", () => {
  it("puts the listed roles at their positions, keeps the others' order and returns every role", async () => {
    const { guild, api } = await setup();
    const a = await addRole(guild.id, 1, { name: "a" });
    const b = await addRole(guild.id, 2, { name: "b" });
    const c = await addRole(guild.id, 3, { name: "c" });
    const res = await api.patch(`/guilds/${guild.id}/roles`, [{ id: a.id, position: 3 }], { headers: { "X-Audit-Log-Reason": "reorder" } });
    expect(res.status).toBe(200);
    expect(res.body.map((r: { id: string; position: number }) => [r.id, r.position])).toEqual([
      [guild.id, 0],
      [b.id, 1],
      [c.id, 2],
      [a.id, 3],
    ]);
    const updates = await eventsOf(guild.id, GatewayDispatchEvents.GuildRoleUpdate);
    expect(updates.map((e) => [e.role.id, e.role.position]).sort()).toEqual(
      [
        [a.id, 3],
        [b.id, 1],
        [c.id, 2],
      ].sort(),
    );
    const audits = await auditOf(guild.id, AuditLogEvent.RoleUpdate);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ targetId: a.id, reason: "reorder" });
    expect(JSON.parse(audits[0]!.changes!)).toEqual([{ key: "position", old_value: 1, new_value: 3 }]);
  });

  it("renumbers gapped and tied positions to 1..n and accepts @everyone at 0", async () => {
    const { guild, api } = await setup();
    const a = await addRole(guild.id, 4);
    const b = await addRole(guild.id, 9);
    const c = await addRole(guild.id, 9);
    const res = await api.patch(`/guilds/${guild.id}/roles`, [
      { id: guild.id, position: 0 },
      { id: b.id, position: 1 },
    ]);
    expect(res.status).toBe(200);
    // At equal positions the older role ranks higher, so c sat below b.
    expect(res.body.map((r: { id: string; position: number }) => [r.id, r.position])).toEqual([
      [guild.id, 0],
      [b.id, 1],
      [a.id, 2],
      [c.id, 3],
    ]);
  });

  it("never moves @everyone and answers 10011 for roles of other guilds", async () => {
    const { guild, api } = await setup();
    const everyone = await api.patch(`/guilds/${guild.id}/roles`, [{ id: guild.id, position: 2 }]);
    expect(everyone.status).toBe(400);
    expect(everyone.body.code).toBe(50028);
    const other = await setup();
    const foreign = await addRole(other.guild.id, 1);
    const res = await api.patch(`/guilds/${guild.id}/roles`, [{ id: foreign.id, position: 1 }]);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(10011);
  });

  it("lets a manager move roles only below their top role", async () => {
    const { guild } = await setup();
    const x = await addRole(guild.id, 1, { name: "x" });
    const y = await addRole(guild.id, 2, { name: "y" });
    const manager = await addBotWithRole(guild.id, P.ManageRoles, 3);
    const z = await addRole(guild.id, 4, { name: "z" });
    const path = `/guilds/${guild.id}/roles`;

    const ok = await manager.api.patch(path, [{ id: x.id, position: 2 }]);
    expect(ok.status).toBe(200);
    expect(ok.body.map((r: { id: string }) => r.id)).toEqual([guild.id, y.id, x.id, manager.role.id, z.id]);

    for (const body of [[{ id: x.id, position: 3 }], [{ id: z.id, position: 1 }], [{ id: manager.role.id, position: 1 }], [{ id: x.id, position: 4 }]]) {
      const res = await manager.api.patch(path, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body).toEqual(MISSING_PERMISSIONS);
    }
    // The whole list as clients send it, with roles above the caller left where they are.
    const whole = await manager.api.patch(path, [
      { id: guild.id, position: 0 },
      { id: x.id, position: 1 },
      { id: y.id, position: 2 },
      { id: manager.role.id, position: 3 },
      { id: z.id, position: 4 },
    ]);
    expect(whole.status).toBe(200);
    expect(whole.body.map((r: { id: string }) => r.id)).toEqual([guild.id, x.id, y.id, manager.role.id, z.id]);
  });

  it("needs MANAGE_ROLES and a bot token", async () => {
    const { guild } = await setup();
    const role = await addRole(guild.id, 1);
    const member = await addBotWithRole(guild.id, P.KickMembers, 5);
    const res = await member.api.patch(`/guilds/${guild.id}/roles`, [{ id: role.id, position: 2 }]);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(MISSING_PERMISSIONS);
    expect((await app.as().patch(`/guilds/${guild.id}/roles`, [])).body).toEqual(UNAUTHORIZED);
    const user = await makeUser(app.db);
    expect((await app.as(bearer(user.token)).patch(`/guilds/${guild.id}/roles`, [])).status).toBe(401);
  });

  it("validates the body and answers 10004 for an unknown guild", async () => {
    const { api } = await setup();
    const bad = await api.patch(`/guilds/${newId()}/roles`, [{ id: "nope", position: 1 }]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors["0"].id._errors[0].code).toBeDefined();
    expect((await api.patch(`/guilds/${newId()}/roles`, [])).body.code).toBe(10004);
  });
});

describe("DELETE /guilds/:guildId/roles/:roleId", () => {
  it("deletes the role, takes it from its members, audits and fires Guild Role Delete", async () => {
    const { guild, api } = await setup();
    const role = await addRole(guild.id, 1, { name: "doomed" });
    const member = await makeBot(app.db);
    await addMember(app.db, guild.id, member.user.id, [role.id]);
    const res = await api.delete(`/guilds/${guild.id}/roles/${role.id}`, { headers: { "X-Audit-Log-Reason": encodeURIComponent("no longer needed") } });
    expect(res.status).toBe(204);
    expect(res.body).toBe("");
    expect((await api.get(`/guilds/${guild.id}/roles`)).body.map((r: { id: string }) => r.id)).toEqual([guild.id]);
    expect(await app.db.memberRole.count({ where: { roleId: role.id } })).toBe(0);
    expect(await eventsOf(guild.id, GatewayDispatchEvents.GuildRoleDelete)).toEqual([{ guild_id: guild.id, role_id: role.id }]);
    const [entry] = await auditOf(guild.id, AuditLogEvent.RoleDelete);
    expect(entry).toMatchObject({ targetId: role.id, reason: "no longer needed" });
    expect(JSON.parse(entry!.changes!)).toEqual(expect.arrayContaining([{ key: "name", old_value: "doomed" }]));
  });

  it("removes the role's channel overwrites and updates those channels", async () => {
    const { guild, api } = await setup();
    const role = await addRole(guild.id, 1, { name: "muted" });
    const channel = await api.post(`/guilds/${guild.id}/channels`, {
      name: "quiet",
      permission_overwrites: [{ id: role.id, type: 0, deny: String(P.SendMessages) }],
    });
    expect(channel.status).toBe(200);
    expect((await api.delete(`/guilds/${guild.id}/roles/${role.id}`)).status).toBe(204);
    const after = await api.get(`/channels/${channel.body.id}`);
    expect(after.body.permission_overwrites).toEqual([]);
    const updates = (await eventsOf(guild.id, GatewayDispatchEvents.ChannelUpdate)) as { id: string; permission_overwrites: unknown[] }[];
    expect(updates.at(-1)).toMatchObject({ id: channel.body.id, permission_overwrites: [] });
  });

  it("refuses @everyone and managed roles with 50028", async () => {
    const { guild, api } = await setup();
    const managed = await addRole(guild.id, 1, { managed: true });
    for (const id of [guild.id, managed.id]) {
      const res = await api.delete(`/guilds/${guild.id}/roles/${id}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 50028, message: "Invalid Role" });
    }
    expect(await app.db.role.count({ where: { guildId: guild.id } })).toBe(2);
  });

  it("needs MANAGE_ROLES and a top role above the target", async () => {
    const { guild } = await setup();
    const below = await addRole(guild.id, 1);
    const manager = await addBotWithRole(guild.id, P.ManageRoles, 2);
    const above = await addRole(guild.id, 3);
    const plain = await addBotWithRole(guild.id, P.KickMembers, 4);
    expect((await plain.api.delete(`/guilds/${guild.id}/roles/${below.id}`)).body).toEqual(MISSING_PERMISSIONS);
    for (const target of [manager.role, above]) {
      const res = await manager.api.delete(`/guilds/${guild.id}/roles/${target.id}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(MISSING_PERMISSIONS);
    }
    expect((await manager.api.delete(`/guilds/${guild.id}/roles/${below.id}`)).status).toBe(204);
  });

  it("answers 10011 for an unknown role, 10004 for an unknown guild and 401 without a bot token", async () => {
    const { guild, api } = await setup();
    const res = await api.delete(`/guilds/${guild.id}/roles/${newId()}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 10011, message: "Unknown Role" });
    expect((await api.delete(`/guilds/${newId()}/roles/${newId()}`)).body.code).toBe(10004);
    expect((await app.as().delete(`/guilds/${guild.id}/roles/${newId()}`)).body).toEqual(UNAUTHORIZED);
    const user = await makeUser(app.db);
    expect((await app.as(bearer(user.token)).delete(`/guilds/${guild.id}/roles/${newId()}`)).status).toBe(401);
  });
});

describe("role tRPC router", () => {
  it("runs the same rules as REST", async () => {
    const { owner, guild } = await setup();
    const member = await addBotWithRole(guild.id, P.KickMembers, 1);
    const asMember = createCaller({ db: app.db, userId: member.user.id });
    const denied = await asMember.role.create({ guildId: guild.id, body: { name: "nope" } }).catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(TRPCError);
    expect((denied as TRPCError).code).toBe("FORBIDDEN");

    const asOwner = createCaller({ db: app.db, userId: owner.user.id });
    const role = await asOwner.role.create({ guildId: guild.id, body: { name: "from the dashboard" } });
    expect(role).toMatchObject({ name: "from the dashboard", position: 1 });
    const renamed = await asOwner.role.modify({ guildId: guild.id, roleId: role.id, body: { name: "renamed" } });
    expect(renamed.name).toBe("renamed");
    const reordered = await asOwner.role.move({ guildId: guild.id, roleId: role.id, direction: "up" });
    expect(reordered.map((r) => r.id)).toEqual([guild.id, member.role.id, role.id]);
    const tooLong = await asOwner.role.create({ guildId: guild.id, body: { name: "x".repeat(ROLE_NAME_MAX + 1) } }).catch((error: unknown) => error);
    expect((tooLong as TRPCError).code).toBe("BAD_REQUEST");
    await asOwner.role.delete({ guildId: guild.id, roleId: role.id });
    expect((await asOwner.role.list({ guildId: guild.id })).map((r) => r.id)).toEqual([guild.id, member.role.id]);
  });
});
