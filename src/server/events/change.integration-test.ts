import { GatewayDispatchEvents } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { guildAsUpdated, makeBot, makeGuild } from "~/test/factories.ts";
import { useTestApp } from "~/test/test-app.ts";
import { runChange } from "./change.ts";
import type { StoredEvent } from "./event-bus.ts";

const app = useTestApp();

describe("runChange", () => {
  it("stores the event with the change and publishes it once committed", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const seen: StoredEvent[] = [];
    const unsubscribe = app.runtime.events.subscribe((event) => seen.push(event));
    try {
      await runChange({ db: app.db, actor: owner.actor, auditReason: "why" }, async ({ tx, emit, audit }) => {
        await tx.guild.update({ where: { id: guild.id }, data: { name: "Changed" } });
        await emit(GatewayDispatchEvents.GuildUpdate, await guildAsUpdated(tx, guild.id));
        await audit({ guildId: guild.id, actionType: 1, targetId: guild.id });
        expect(seen).toHaveLength(0);
      });
    } finally {
      unsubscribe();
    }
    // The audit entry is announced too, after the change's own events.
    expect(seen.map((event) => event.type)).toEqual(["GUILD_UPDATE", "GUILD_AUDIT_LOG_ENTRY_CREATE"]);
    expect(seen[0]).toMatchObject({ type: "GUILD_UPDATE", guildId: guild.id, data: { name: "Changed" } });
    expect(seen[1]).toMatchObject({
      guildId: guild.id,
      data: { guild_id: guild.id, action_type: 1, target_id: guild.id, user_id: owner.user.id, reason: "why" },
    });
    const stored = await app.db.event.findUnique({ where: { seq: seen[0]!.seq } });
    expect(stored?.type).toBe("GUILD_UPDATE");
    expect((await app.db.auditLogEntry.findFirst({ where: { guildId: guild.id } }))?.reason).toBe("why");
  });

  it("keeps neither the change, the event nor the audit entry when the change fails", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const seen: StoredEvent[] = [];
    const unsubscribe = app.runtime.events.subscribe((event) => seen.push(event));
    const before = await app.db.event.count();
    await expect(
      runChange({ db: app.db, actor: owner.actor }, async ({ tx, emit, audit }) => {
        await tx.guild.update({ where: { id: guild.id }, data: { name: "Half" } });
        await emit(GatewayDispatchEvents.GuildUpdate, await guildAsUpdated(tx, guild.id));
        await audit({ guildId: guild.id, actionType: 1, targetId: guild.id });
        throw new Error("fails midway");
      }),
    ).rejects.toThrow("fails midway");
    unsubscribe();
    expect(seen).toEqual([]);
    expect(await app.db.event.count()).toBe(before);
    expect((await app.db.guild.findUnique({ where: { id: guild.id } }))?.name).toBe(guild.name);
    expect(await app.db.auditLogEntry.count({ where: { guildId: guild.id } })).toBe(0);
  });
});
