import { GatewayDispatchEvents } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { Prisma } from "~/generated/prisma/client.ts";
import { runChange } from "~/server/events/change.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { guildAsUpdated, makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { GUARDED_WRITES, UnannouncedWriteError } from "./event-guard.ts";

// Every database client (createDb) is guarded, so every integration test of every domain,
// present and future, runs under this rule: a service that changes cached state without
// emitting an event fails its own tests instead of leaving stale caches behind.

const app = useTestApp();

describe("writes to cached state", () => {
  it("are refused outside a change, and nothing is written", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    await expect(app.db.guild.update({ where: { id: guild.id }, data: { name: "Sneaky" } })).rejects.toThrow(UnannouncedWriteError);
    await expect(app.db.role.create({ data: { id: newId(), guildId: guild.id, name: "Sneaky" } })).rejects.toThrow(UnannouncedWriteError);
    await expect(app.db.member.deleteMany({ where: { guildId: guild.id } })).rejects.toThrow(UnannouncedWriteError);
    expect((await app.db.guild.findUniqueOrThrow({ where: { id: guild.id } })).name).toBe(guild.name);
    expect(await app.db.role.count({ where: { guildId: guild.id } })).toBe(1);
    expect(await app.db.member.count({ where: { guildId: guild.id } })).toBe(1);
  });

  it("commit only with an event: without one the whole change is rolled back", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const forgetful = runChange({ db: app.db, actor: owner.actor }, async ({ tx, audit }) => {
      await tx.guild.update({ where: { id: guild.id }, data: { name: "Forgotten event" } });
      await audit({ guildId: guild.id, actionType: 1, targetId: guild.id });
    });
    await expect(forgetful).rejects.toThrow(/Cached state written without an event \(Guild\)/);
    expect((await app.db.guild.findUniqueOrThrow({ where: { id: guild.id } })).name).toBe(guild.name);
    expect(await app.db.auditLogEntry.count({ where: { guildId: guild.id } })).toBe(0);

    // The connection is usable again, and the same change with its event commits.
    await runChange({ db: app.db, actor: owner.actor }, async ({ tx, emit }) => {
      await tx.guild.update({ where: { id: guild.id }, data: { name: "Announced" } });
      await emit(GatewayDispatchEvents.GuildUpdate, await guildAsUpdated(tx, guild.id));
    });
    expect((await app.db.guild.findUniqueOrThrow({ where: { id: guild.id } })).name).toBe("Announced");
  });

  it("lets a conditional write that changed no rows commit without an event (it wrote nothing)", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const nothing = await runChange({ db: app.db, actor: null }, ({ tx }) => tx.member.deleteMany({ where: { guildId: guild.id, userId: newId() } }));
    expect(nothing.count).toBe(0);
    await expect(runChange({ db: app.db, actor: null }, ({ tx }) => tx.member.deleteMany({ where: { guildId: guild.id } }))).rejects.toThrow(
      UnannouncedWriteError,
    );
    expect(await app.db.member.count({ where: { guildId: guild.id } })).toBe(1);
  });

  it("covers token revocation; new tokens and rows no cache reads need no event", async () => {
    const user = await makeUser(app.db);
    await expect(app.db.token.updateMany({ where: { userId: user.user.id }, data: { revokedAt: new Date() } })).rejects.toThrow(UnannouncedWriteError);
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    await app.db.image.create({ data: { path: `icons/${guild.id}/${newId()}`, contentType: "image/png", data: new Uint8Array([1]) } });
    await app.db.user.update({ where: { id: user.user.id }, data: { globalName: "Renamed" } });
  });

  it("names only tables that exist, so a renamed model cannot switch the guard off", () => {
    const models: readonly string[] = Object.values(Prisma.ModelName);
    for (const table of Object.keys(GUARDED_WRITES)) expect(models).toContain(table);
  });
});

describe("a change under way", () => {
  it("is never read by another request, and a rolled-back one is never cached", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const change = runChange({ db: app.db, actor: owner.actor }, async ({ tx, emit }) => {
      await tx.guild.update({ where: { id: guild.id }, data: { name: "Uncommitted" } });
      await emit(GatewayDispatchEvents.GuildUpdate, await guildAsUpdated(tx, guild.id));
      await held;
      throw new Error("rolled back");
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reading = app.db.guild.findUniqueOrThrow({ where: { id: guild.id } });
    const viaRest = app.as(bot(owner.token)).get(`/guilds/${guild.id}`);
    // Both reads have had ample time to run while the change is open.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await expect(change).rejects.toThrow("rolled back");
    expect((await reading).name).toBe(guild.name);
    expect((await viaRest).body.name).toBe(guild.name);
    expect((await app.as(bot(owner.token)).get(`/guilds/${guild.id}`)).body.name).toBe(guild.name);
  });
});
