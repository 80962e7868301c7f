import { TRPCError } from "@trpc/server";
import { AuditLogEvent } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeGuild, makeUser } from "~/test/factories.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();

async function ownedGuild() {
  const owner = await makeUser(app.db);
  const guild = await makeGuild(app.db, dashboardActor(owner.user.id));
  return { owner, guild, caller: createCaller({ db: app.db, userId: owner.user.id }) };
}

describe("audit.list", () => {
  it("pages the guild's changes newest first, with the users who made them", async () => {
    const { owner, guild, caller } = await ownedGuild();
    await caller.guild.modify({ guildId: guild.id, body: { name: "First rename" } });
    await caller.guild.modify({ guildId: guild.id, body: { name: "Second rename" } });

    const first = await caller.audit.list({ guildId: guild.id, query: { limit: "1" } });
    expect(first.audit_log_entries).toHaveLength(1);
    expect(first.audit_log_entries[0]).toMatchObject({
      action_type: AuditLogEvent.GuildUpdate,
      user_id: owner.user.id,
      target_id: guild.id,
      changes: [{ key: "name", old_value: "First rename", new_value: "Second rename" }],
    });
    expect(first.users.map((u) => u.id)).toEqual([owner.user.id]);

    const next = await caller.audit.list({ guildId: guild.id, query: { limit: "1", before: first.audit_log_entries[0]!.id } });
    expect(next.audit_log_entries[0]?.changes).toEqual([{ key: "name", old_value: guild.name, new_value: "First rename" }]);
  });

  it("filters by action type", async () => {
    const { guild, caller } = await ownedGuild();
    await caller.guild.modify({ guildId: guild.id, body: { name: "Renamed" } });
    await caller.role.create({ guildId: guild.id, body: { name: "Helpers" } });
    const roles = await caller.audit.list({ guildId: guild.id, query: { action_type: String(AuditLogEvent.RoleCreate) } });
    expect(roles.audit_log_entries.map((e) => e.action_type)).toEqual([AuditLogEvent.RoleCreate]);
  });

  it("is refused to members without View Audit Log", async () => {
    const { guild } = await ownedGuild();
    const member = await makeUser(app.db);
    await addMember(app.db, guild.id, member.user.id);
    const denied = await createCaller({ db: app.db, userId: member.user.id })
      .audit.list({ guildId: guild.id, query: {} })
      .catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(TRPCError);
    expect((denied as TRPCError).code).toBe("FORBIDDEN");
  });

  it("rejects a query the REST endpoint would reject", async () => {
    const { guild, caller } = await ownedGuild();
    const invalid = await caller.audit.list({ guildId: guild.id, query: { limit: "500" } }).catch((error: unknown) => error);
    expect((invalid as TRPCError).code).toBe("BAD_REQUEST");
  });
});
