import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createCaller } from "~/server/trpc/root.ts";
import { memberKit, MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

// Managed roles keep their role, not their place: roles below the mover's highest move past
// them both ways, new roles (made just above @everyone) included.

const app = useTestApp();
const kit = memberKit(app);

type RoleBody = { id: string; name: string; position: number; managed: boolean };

/** A guild with Mods (a moderator's top role, MANAGE_ROLES) above a managed Bots role. */
async function guildWithBotRole() {
  const { guild, api: asOwner, owner } = await kit.setup();
  const bots = await kit.addRole(guild.id, 1, { name: "Bots", managed: true });
  const mods = await kit.addRole(guild.id, 2, { name: "Mods", permissions: P.ManageRoles });
  const moderator = await kit.addBot(guild.id, [mods.id]);
  return { guild, asOwner, owner, bots, mods, moderator };
}

/** Role names highest first, @everyone left out, as GET /guilds/{id}/roles orders them. */
async function namesOf(api: Awaited<ReturnType<typeof guildWithBotRole>>["asOwner"], guildId: string) {
  const roles = (await api.get<RoleBody[]>(`/guilds/${guildId}/roles`)).body;
  return roles
    .filter((role) => role.id !== guildId)
    .sort((a, b) => b.position - a.position)
    .map((role) => role.name);
}

describe("PATCH /guilds/:guildId/roles past a managed role", () => {
  it("moves a new role, made just above @everyone, above a managed role", async () => {
    const { guild, moderator } = await guildWithBotRole();
    const created = await moderator.api.post<RoleBody>(`/guilds/${guild.id}/roles`, { name: "Helpers" });
    expect(created.body.position).toBe(1);
    expect(await namesOf(moderator.api, guild.id)).toEqual(["Mods", "Bots", "Helpers"]);

    const moved = await moderator.api.patch<RoleBody[]>(`/guilds/${guild.id}/roles`, [{ id: created.body.id, position: 2 }]);
    expect(moved.status).toBe(200);
    expect(await namesOf(moderator.api, guild.id)).toEqual(["Mods", "Helpers", "Bots"]);
    expect(moved.body.find((role) => role.name === "Bots")).toMatchObject({ managed: true, position: 1 });
  });

  it("moves a role down past a managed role and back up", async () => {
    const { guild, moderator } = await guildWithBotRole();
    const helpers = await kit.addRole(guild.id, 2, { name: "Helpers" });
    // Helpers is newer than Mods at the same position, so it ranks below it.
    expect(await namesOf(moderator.api, guild.id)).toEqual(["Mods", "Helpers", "Bots"]);
    expect((await moderator.api.patch(`/guilds/${guild.id}/roles`, [{ id: helpers.id, position: 1 }])).status).toBe(200);
    expect(await namesOf(moderator.api, guild.id)).toEqual(["Mods", "Bots", "Helpers"]);
    expect((await moderator.api.patch(`/guilds/${guild.id}/roles`, [{ id: helpers.id, position: 2 }])).status).toBe(200);
    expect(await namesOf(moderator.api, guild.id)).toEqual(["Mods", "Helpers", "Bots"]);
  });

  it("lets whoever is above a managed role move it, and no one lift a role to or above their own", async () => {
    const { guild, moderator, bots, asOwner } = await guildWithBotRole();
    await kit.addRole(guild.id, 2, { name: "Helpers" });
    // The managed role moves like any other for someone above it.
    expect((await moderator.api.patch(`/guilds/${guild.id}/roles`, [{ id: bots.id, position: 2 }])).status).toBe(200);
    expect(await namesOf(moderator.api, guild.id)).toEqual(["Mods", "Bots", "Helpers"]);
    // Above the moderator's own role it may not go; the owner may put it anywhere.
    const refused = await moderator.api.patch(`/guilds/${guild.id}/roles`, [{ id: bots.id, position: 3 }]);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(MISSING_PERMISSIONS);
    expect((await asOwner.patch(`/guilds/${guild.id}/roles`, [{ id: bots.id, position: 3 }])).status).toBe(200);
    expect(await namesOf(asOwner, guild.id)).toEqual(["Bots", "Mods", "Helpers"]);
    // Now above the moderator, the managed role stays where the owner put it.
    expect((await moderator.api.patch(`/guilds/${guild.id}/roles`, [{ id: bots.id, position: 1 }])).status).toBe(403);
    const rows = (await createCaller({ db: app.db, userId: moderator.user.id }).role.rows({ guildId: guild.id })).rows;
    expect(rows.find((row) => row.role.id === bots.id)?.denials.move).toBe("Roles at or above your highest role cannot move.");
  });
});

describe("role.move and role.rows past a managed role", () => {
  it("drags a role down past the managed role and back up, with the rows allowing both", async () => {
    const { guild, moderator, bots, mods } = await guildWithBotRole();
    const viewer = createCaller({ db: app.db, userId: moderator.user.id });
    const helpers = await viewer.role.create({ guildId: guild.id, body: { name: "Helpers" } });
    const before = await viewer.role.rows({ guildId: guild.id });
    expect(before.rows.map((row) => row.role.name)).toEqual(["Mods", "Bots", "Helpers", "@everyone"]);
    const helpersRow = before.rows.find((row) => row.role.id === helpers.id)!;
    expect(helpersRow.denials).toMatchObject({ move: null, moveUp: null, moveDown: "Already the lowest role." });
    const botsRow = before.rows.find((row) => row.role.id === bots.id)!;
    expect(botsRow).toMatchObject({ managedBy: "Managed by an integration.", denials: { move: null, moveDown: null } });
    expect(before.rows.find((row) => row.role.name === "Mods")?.managedBy).toBeNull();

    await viewer.role.move({ guildId: guild.id, roleId: helpers.id, toRoleId: bots.id });
    expect((await viewer.role.rows({ guildId: guild.id })).rows.map((row) => row.role.name)).toEqual(["Mods", "Helpers", "Bots", "@everyone"]);
    await viewer.role.move({ guildId: guild.id, roleId: helpers.id, direction: "down" });
    await viewer.role.move({ guildId: guild.id, roleId: helpers.id, direction: "up" });
    expect((await viewer.role.rows({ guildId: guild.id })).rows.map((row) => row.role.name)).toEqual(["Mods", "Helpers", "Bots", "@everyone"]);
    // Dropping onto the moderator's own role is refused as the row says.
    expect(before.rows.find((row) => row.role.id === mods.id)?.denials.move).toBe("Roles at or above your highest role cannot move.");
    await expect(viewer.role.move({ guildId: guild.id, roleId: helpers.id, toRoleId: mods.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
