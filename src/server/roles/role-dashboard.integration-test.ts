import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeBot } from "~/test/factories.ts";
import { memberKit } from "~/test/member-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

// The roles page shows, per role, why the viewer may not edit, move or delete it. Those
// reasons come from the rules the services enforce, so a reason is shown exactly where the
// REST call would be refused.

const app = useTestApp();
const kit = memberKit(app);
const NOT_BELOW = "This role is not below your highest role.";

/**
 * A guild where a moderator's top role, Mods, shares its position with Elders (older, so
 * above it) and Peers (newer, so below it); Helpers and a managed Bots role sit lower.
 */
async function tiedHierarchy() {
  const { owner, guild, api: asOwner } = await kit.setup();
  // Created in this order, so each has a larger id than the one before.
  const helpers = await kit.addRole(guild.id, 1, { name: "Helpers" });
  const bots = await kit.addRole(guild.id, 1, { name: "Bots", managed: true });
  const elders = await kit.addRole(guild.id, 2, { name: "Elders" });
  const mods = await kit.addRole(guild.id, 2, { name: "Mods", permissions: P.ManageRoles | P.KickMembers });
  const peers = await kit.addRole(guild.id, 2, { name: "Peers" });
  const moderator = await makeBot(app.db);
  await addMember(app.db, guild.id, moderator.user.id, [mods.id]);
  return {
    owner,
    guild,
    asOwner,
    roles: { helpers, bots, elders, mods, peers },
    viewer: createCaller({ db: app.db, userId: moderator.user.id }),
    api: app.as(bot(moderator.token)),
  };
}

describe("role.rows", () => {
  it("ranks roles at one position by age, and lets the moderator manage only those below their own", async () => {
    const { guild, viewer } = await tiedHierarchy();
    const { create, rows } = await viewer.role.rows({ guildId: guild.id });
    expect(create).toBeNull();
    expect(rows.map((row) => row.role.name)).toEqual(["Elders", "Mods", "Peers", "Helpers", "Bots", "@everyone"]);
    const byName = new Map(rows.map((row) => [row.role.name, row.denials]));
    expect(byName.get("Elders")).toMatchObject({ edit: NOT_BELOW, delete: NOT_BELOW, moveUp: "Already the highest role." });
    expect(byName.get("Mods")).toMatchObject({ edit: NOT_BELOW, moveUp: expect.any(String), moveDown: expect.any(String) });
    expect(byName.get("Peers")).toEqual({
      edit: null,
      delete: null,
      move: null,
      moveUp: "Roles at or above your highest role cannot move.",
      moveDown: null,
    });
    expect(byName.get("Bots")).toEqual({
      edit: null,
      delete: "Managed roles belong to their integration.",
      move: null,
      moveUp: null,
      moveDown: "Already the lowest role.",
    });
    // A permission the moderator lacks cannot be added; one they hold can.
    const peers = rows.find((row) => row.role.name === "Peers")!;
    expect(BigInt(peers.ungrantable) & P.BanMembers).toBe(P.BanMembers);
    expect(BigInt(peers.ungrantable) & P.KickMembers).toBe(0n);
  });

  it("shows a reason exactly where REST refuses: editing, giving permissions, moving and deleting each role", async () => {
    const { guild, viewer, api, asOwner } = await tiedHierarchy();
    const { rows } = await viewer.role.rows({ guildId: guild.id });
    const refused = (status: number) => status >= 400;
    const ranked = rows.filter((row) => row.role.id !== guild.id).reverse();
    const restoreOrder = ranked.map((row, index) => ({ id: row.role.id, position: index + 1 }));

    for (const { role, denials, ungrantable } of rows) {
      const name = role.name;
      expect(refused((await api.patch(`/guilds/${guild.id}/roles/${role.id}`, {})).status), `edit ${name}`).toBe(denials.edit !== null);
      if (denials.edit === null) {
        for (const bit of [P.KickMembers, P.BanMembers]) {
          const status = (await api.patch(`/guilds/${guild.id}/roles/${role.id}`, { permissions: String(BigInt(role.permissions) | bit) })).status;
          expect(refused(status), `give ${bit} to ${name}`).toBe((BigInt(ungrantable) & bit) !== 0n);
        }
      }
      if (role.id === guild.id) continue;
      const index = ranked.findIndex((row) => row.role.id === role.id);
      for (const [direction, step, denial] of [
        ["up", 1, denials.moveUp],
        ["down", -1, denials.moveDown],
      ] as const) {
        const neighbour = ranked[index + step];
        if (!neighbour) continue;
        // The page's swap: each takes the other's slot in the hierarchy (1-based, @everyone left out).
        const swap = [
          { id: role.id, position: index + step + 1 },
          { id: neighbour.role.id, position: index + 1 },
        ];
        expect(refused((await api.patch(`/guilds/${guild.id}/roles`, swap)).status), `move ${name} ${direction}`).toBe(denial !== null);
        expect((await asOwner.patch(`/guilds/${guild.id}/roles`, restoreOrder)).status).toBe(200);
      }
    }
    for (const { role, denials } of rows) {
      expect(refused((await api.delete(`/guilds/${guild.id}/roles/${role.id}`)).status), `delete ${role.name}`).toBe(denials.delete !== null);
    }
  });

  it("moves a role through role.move with the same decision", async () => {
    const { guild, viewer, roles } = await tiedHierarchy();
    const moved = await viewer.role.move({ guildId: guild.id, roleId: roles.helpers.id, direction: "up" });
    const names = moved.map((role) => role.name);
    expect(names.indexOf("Helpers")).toBeGreaterThan(names.indexOf("Peers"));
    const after = await viewer.role.rows({ guildId: guild.id });
    expect(after.rows.map((row) => row.role.name)).toEqual(["Elders", "Mods", "Helpers", "Peers", "Bots", "@everyone"]);
    // Helpers is now just below Mods: moving it up would move the moderator's own role.
    expect(after.rows.find((row) => row.role.name === "Helpers")?.denials.moveUp).toBe("Roles at or above your highest role cannot move.");
    await expect(viewer.role.move({ guildId: guild.id, roleId: roles.helpers.id, direction: "up" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
