import { GatewayDispatchEvents } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { runChange } from "~/server/events/change.ts";
import { makeBot, makeGuild } from "~/test/factories.ts";
import { useTestApp } from "~/test/test-app.ts";
import { toRoleObject } from "./role.dto.ts";
import { deleteRoleRow, insertRoleRow, shiftRolesUp } from "./role-queries.ts";

const app = useTestApp();

// Role rows read through a change's statements must be what Prisma reads, the BigInt
// permissions included (SQLite answers them as BigInt, PostgreSQL's bigint too).
describe("role statements", () => {
  it("read and write role rows as Prisma does", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const permissions = (1n << 50n) | 8n;

    const written = await runChange({ db: app.db, actor: null }, async ({ sql, emit }) => {
      const plain = await insertRoleRow(sql, { id: `${guild.id}1`, guildId: guild.id, name: "plain", position: 1 });
      const full = await insertRoleRow(sql, {
        id: `${guild.id}2`,
        guildId: guild.id,
        name: "full",
        position: 2,
        permissions,
        color: 0xff0000,
        secondaryColor: 0x00ff00,
        tertiaryColor: null,
        hoist: true,
        unicodeEmoji: "🙂",
        managed: true,
        mentionable: true,
        botId: owner.user.id,
      });
      const shifted = await shiftRolesUp(sql, guild.id);
      for (const role of [plain, full]) await emit(GatewayDispatchEvents.GuildRoleCreate, { guild_id: guild.id, role: toRoleObject(role) });
      return { plain, full, shifted };
    });

    const prismaRole = (id: string) => app.db.role.findUniqueOrThrow({ where: { id } });
    expect(written.full).toEqual({ ...(await prismaRole(written.full.id)), position: 2 });
    expect(written.full.permissions).toBe(permissions);
    expect(written.plain).toEqual({ ...(await prismaRole(written.plain.id)), position: 1 });
    const shifted = [...written.shifted].sort((a, b) => a.position - b.position);
    expect(shifted).toEqual(await app.db.role.findMany({ where: { guildId: guild.id, id: { not: guild.id } }, orderBy: { position: "asc" } }));
    expect(shifted.map((role) => role.position)).toEqual([2, 3]);

    const deleted = await runChange({ db: app.db, actor: null }, async ({ sql, emit }) => {
      const row = await deleteRoleRow(sql, written.plain.id);
      await emit(GatewayDispatchEvents.GuildRoleDelete, { guild_id: guild.id, role_id: written.plain.id });
      return { row, again: await deleteRoleRow(sql, written.plain.id) };
    });
    expect(deleted).toEqual({ row: { icon: null }, again: undefined });
  });
});
