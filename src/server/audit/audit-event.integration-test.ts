import { AuditLogEvent, GatewayDispatchEvents as E, GatewayIntentBits as I, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "~/server/gateway/session-start-limit.ts";
import { addMember, makeBot, makeGuild } from "~/test/factories.ts";
import { identified, useGatewayServer, type GatewayClient } from "~/test/gateway-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
// One bot opens two sessions at once here.
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } },
});

const MODERATION = I.Guilds | I.GuildModeration;

/** The dispatches a session received up to the next GUILD_UPDATE: events are sent in commit order, so what came before it is all it will hear of earlier changes. */
async function typesBeforeGuildUpdate(client: GatewayClient): Promise<(string | null | undefined)[]> {
  const frames = await client.framesThrough((frame) => frame.op === 0 && frame.t === E.GuildUpdate, "a GUILD_UPDATE");
  return frames.map((frame) => frame.t);
}

async function setUp() {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  const api = app.as(bot(owner.token));
  const auditors = await api.post(`/guilds/${guild.id}/roles`, { name: "Auditors", permissions: String(P.ViewAuditLog) });
  expect(auditors.status).toBe(200);
  const moderator = await makeBot(app.db);
  await addMember(app.db, guild.id, moderator.user.id, [auditors.body.id]);
  const plain = await makeBot(app.db);
  await addMember(app.db, guild.id, plain.user.id);
  const connect = async (token: string, intents: number) => {
    const { client } = await identified(server, token, { intents });
    await client.dispatch(E.GuildCreate);
    return client;
  };
  return { owner, guild, api, auditorsId: auditors.body.id as string, moderator, plain, connect };
}

describe("GUILD_AUDIT_LOG_ENTRY_CREATE", () => {
  it("sends each new audit entry, as the audit log lists it, to sessions with GUILD_MODERATION whose bot may view the audit log", async () => {
    const { owner, guild, api, moderator, plain, connect } = await setUp();
    const reader = await connect(moderator.token, MODERATION);
    const withoutIntent = await connect(moderator.token, I.Guilds);
    const withoutPermission = await connect(plain.token, MODERATION);

    const created = await api.post(
      `/guilds/${guild.id}/roles`,
      { name: "Helpers", hoist: true },
      { headers: { "X-Audit-Log-Reason": encodeURIComponent("more hands ✓") } },
    );
    expect(created.status).toBe(200);
    const heard = await reader.dispatch(E.GuildAuditLogEntryCreate);
    expect(heard.d).toMatchObject({
      guild_id: guild.id,
      action_type: AuditLogEvent.RoleCreate,
      user_id: owner.user.id,
      target_id: created.body.id,
      reason: "more hands ✓",
    });
    expect((heard.d as { changes: unknown[] }).changes).toEqual(
      expect.arrayContaining([
        { key: "name", new_value: "Helpers" },
        { key: "hoist", new_value: true },
      ]),
    );
    // The same object GET /guilds/{id}/audit-logs answers, with the guild.
    const log = await api.get(`/guilds/${guild.id}/audit-logs`, { query: { action_type: AuditLogEvent.RoleCreate, limit: 1 } });
    expect(heard.d).toEqual({ ...log.body.audit_log_entries[0], guild_id: guild.id });

    // A later change all three hear: the entry came to neither of the others before it.
    expect((await api.patch(`/guilds/${guild.id}`, { name: "Renamed" })).status).toBe(200);
    expect(await typesBeforeGuildUpdate(withoutIntent)).not.toContain(E.GuildAuditLogEntryCreate);
    expect(await typesBeforeGuildUpdate(withoutPermission)).not.toContain(E.GuildAuditLogEntryCreate);
    // The reader hears the rename's own entry.
    expect((await reader.dispatch(E.GuildAuditLogEntryCreate)).d).toMatchObject({ action_type: AuditLogEvent.GuildUpdate, target_id: guild.id });
  });

  it("follows the bot's permission at delivery: given VIEW_AUDIT_LOG it hears the next entries, and none once the role is gone", async () => {
    const { guild, api, auditorsId, plain, connect } = await setUp();
    const client = await connect(plain.token, MODERATION);

    expect((await api.put(`/guilds/${guild.id}/members/${plain.user.id}/roles/${auditorsId}`)).status).toBe(204);
    expect((await api.post(`/guilds/${guild.id}/roles`, { name: "Seen" })).status).toBe(200);
    const entry = await client.waitFor(
      (frame) => frame.t === E.GuildAuditLogEntryCreate && (frame.d as { action_type: number }).action_type === AuditLogEvent.RoleCreate,
      "the role's entry",
    );
    expect((entry.d as { changes: unknown[] }).changes).toContainEqual({ key: "name", new_value: "Seen" });

    // The removal's own entry is written after the bot lost the permission: it is not sent either.
    expect((await api.delete(`/guilds/${guild.id}/members/${plain.user.id}/roles/${auditorsId}`)).status).toBe(204);
    expect((await api.post(`/guilds/${guild.id}/roles`, { name: "Unseen" })).status).toBe(200);
    expect((await api.patch(`/guilds/${guild.id}`, { name: "Later" })).status).toBe(200);
    expect(await typesBeforeGuildUpdate(client)).not.toContain(E.GuildAuditLogEntryCreate);
  });
});
