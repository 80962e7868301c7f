import { AuditLogEvent, GatewayDispatchEvents as E, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { addGuildMember } from "~/server/members/member.service.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { makeBot, makeUser } from "~/test/factories.ts";
import { MISSING_ACCESS, MISSING_PERMISSIONS, memberKit } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { addIntegration } from "./integration.service.ts";

const app = useTestApp();
const kit = memberKit(app);
const UNKNOWN_INTEGRATION = { code: 10005, message: "Unknown Integration" };

type Integration = { id: string; type: string; name: string; account: { id: string; name: string }; [key: string]: unknown };

/** A guild owned by a bot, another bot added to it by a signed-in user, and the list. */
async function guildWithBot() {
  const setup = await kit.setup();
  const adder = await makeUser(app.db);
  const added = await makeBot(app.db);
  await addGuildMember({ db: app.db, actor: dashboardActor(adder.user.id) }, { guildId: setup.guild.id, userId: added.user.id });
  const list = await setup.api.get<Integration[]>(`/guilds/${setup.guild.id}/integrations`);
  return { ...setup, adder, added, integration: list.body[0]! };
}

function addStream(guildId: string, userId: string, type: "twitch" | "youtube" = "twitch") {
  return addIntegration(
    { db: app.db, actor: null },
    { guild_id: guildId, type, name: `${type} stream`, account_id: "acc-1", account_name: "streamer", user_id: userId },
  );
}

describe("a bot joining a guild", () => {
  it("records its discord integration, naming the bot, its application and who added it, with both events", async () => {
    const { guild, api, adder, added, integration } = await guildWithBot();
    expect(integration).toMatchObject({
      type: "discord",
      name: added.application.name,
      enabled: true,
      account: { id: added.user.id, name: added.user.username },
      application: { id: added.application.id, name: added.application.name, bot: { id: added.user.id, bot: true } },
      scopes: ["bot", "applications.commands"],
      user: { id: adder.user.id },
    });
    const created = await kit.eventsOf(guild.id, E.IntegrationCreate);
    expect(created).toEqual([{ ...integration, guild_id: guild.id }]);
    expect(await kit.eventsOf(guild.id, E.GuildIntegrationsUpdate)).toEqual([{ guild_id: guild.id }]);

    // A user joining is not an integration, and neither is a bot joining a second time.
    await kit.addUser(guild.id);
    await addGuildMember({ db: app.db, actor: null }, { guildId: guild.id, userId: added.user.id });
    expect((await api.get(`/guilds/${guild.id}/integrations`)).body).toHaveLength(1);
  });
});

describe("GET /guilds/:guildId/integrations", () => {
  it("answers each kind in its own shape", async () => {
    const { guild, api, adder } = await guildWithBot();
    const twitch = await addStream(guild.id, adder.user.id, "twitch");
    await addStream(guild.id, adder.user.id, "youtube");
    const subscription = await addIntegration(
      { db: app.db, actor: null },
      { guild_id: guild.id, type: "guild_subscription", name: "Supporters", account_id: guild.id, account_name: "Supporters" },
    );
    const list = (await api.get<Integration[]>(`/guilds/${guild.id}/integrations`)).body;
    expect(list.map((i) => i.type)).toEqual(["discord", "twitch", "youtube", "guild_subscription"]);
    const role = (await api.get<{ id: string; name: string; managed: boolean }[]>(`/guilds/${guild.id}/roles`)).body.find((r) => r.id === twitch.role_id);
    expect(role).toMatchObject({ name: "Twitch Subscriber", managed: true });
    expect(list[1]).toMatchObject({
      user: { id: adder.user.id },
      syncing: false,
      role_id: role!.id,
      enable_emoticons: false,
      expire_behavior: 0,
      expire_grace_period: 1,
      subscriber_count: 0,
      revoked: false,
      synced_at: expect.any(String),
    });
    expect(list[2]).not.toHaveProperty("enable_emoticons");
    expect(list[3]).toEqual({
      id: subscription.id,
      type: "guild_subscription",
      name: "Supporters",
      enabled: true,
      account: { id: guild.id, name: "Supporters" },
    });
    expect(list[0]).not.toHaveProperty("syncing");
  });

  it("answers the 50 oldest of more", async () => {
    const { guild, api } = await kit.setup();
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) {
      const made = await addIntegration(
        { db: app.db, actor: null },
        { guild_id: guild.id, type: "guild_subscription", name: `Tier ${i}`, account_id: `${i}`, account_name: `Tier ${i}` },
      );
      ids.push(made.id);
    }
    const list = await api.get<Integration[]>(`/guilds/${guild.id}/integrations`);
    expect(list.body.map((i) => i.id)).toEqual(ids.slice(0, 50));
  });

  it("needs MANAGE_GUILD, and membership", async () => {
    const { guild } = await guildWithBot();
    const member = await kit.addBot(guild.id);
    expect((await member.api.get(`/guilds/${guild.id}/integrations`)).body).toEqual(MISSING_PERMISSIONS);
    const manager = await kit.addBotWithRole(guild.id, P.ManageGuild);
    expect((await manager.api.get(`/guilds/${guild.id}/integrations`)).status).toBe(200);
    const outsider = await kit.setup();
    expect((await outsider.api.get(`/guilds/${guild.id}/integrations`)).body).toEqual(MISSING_ACCESS);
  });
});

describe("DELETE /guilds/:guildId/integrations/:integrationId", () => {
  it("removes a bot's integration and kicks the bot, with the events and an audit entry", async () => {
    const { guild, api, owner, added, integration } = await guildWithBot();
    const removed = await api.delete(`/guilds/${guild.id}/integrations/${integration.id}`, { headers: { "x-audit-log-reason": "Not needed any more" } });
    expect(removed.status).toBe(204);
    expect(await kit.memberRow(guild.id, added.user.id)).toBeNull();
    expect((await api.get(`/guilds/${guild.id}/members/${added.user.id}`)).body.code).toBe(10007);
    expect((await api.get(`/guilds/${guild.id}/integrations`)).body).toEqual([]);

    expect((await kit.eventsOf(guild.id, E.GuildMemberRemove)).map((e) => e.user.id)).toEqual([added.user.id]);
    expect(await kit.eventsOf(guild.id, E.IntegrationDelete)).toEqual([{ id: integration.id, guild_id: guild.id, application_id: added.application.id }]);
    expect(await kit.eventsOf(guild.id, E.GuildIntegrationsUpdate)).toHaveLength(2);
    expect(await kit.auditOf(guild.id, AuditLogEvent.IntegrationDelete)).toEqual([
      {
        userId: owner.user.id,
        targetId: integration.id,
        reason: "Not needed any more",
        changes: [
          { key: "type", old_value: "discord" },
          { key: "name", old_value: added.application.name },
        ],
        options: null,
      },
    ]);
    // A kick came with it, but not a moderator's kick entry.
    expect(await kit.auditOf(guild.id, AuditLogEvent.MemberKick)).toEqual([]);

    expect((await api.delete(`/guilds/${guild.id}/integrations/${integration.id}`)).body).toEqual(UNKNOWN_INTEGRATION);
  });

  it("deletes a stream integration's managed subscriber role", async () => {
    const { guild, api, adder } = await guildWithBot();
    const twitch = await addStream(guild.id, adder.user.id);
    expect((await api.delete(`/guilds/${guild.id}/integrations/${twitch.id}`)).status).toBe(204);
    const roles = (await api.get<{ id: string }[]>(`/guilds/${guild.id}/roles`)).body;
    expect(roles.some((r) => r.id === twitch.role_id)).toBe(false);
    expect(await kit.eventsOf(guild.id, E.GuildRoleDelete)).toEqual([{ guild_id: guild.id, role_id: twitch.role_id }]);
    expect(await kit.eventsOf(guild.id, E.IntegrationDelete)).toEqual([{ id: twitch.id, guild_id: guild.id }]);
    // Nobody was kicked: the bot stays, and so does its integration.
    expect(await kit.eventsOf(guild.id, E.GuildMemberRemove)).toEqual([]);
    expect((await api.get(`/guilds/${guild.id}/integrations`)).body.map((i: Integration) => i.type)).toEqual(["discord"]);
  });

  it("answers 10005 for an unknown id and for another guild's integration, and needs MANAGE_GUILD", async () => {
    const { guild, api, integration } = await guildWithBot();
    expect((await api.delete(`/guilds/${guild.id}/integrations/1234567890123456789`)).body).toEqual(UNKNOWN_INTEGRATION);
    const other = await guildWithBot();
    expect((await api.delete(`/guilds/${guild.id}/integrations/${other.integration.id}`)).body).toEqual(UNKNOWN_INTEGRATION);
    expect((await other.api.get(`/guilds/${other.guild.id}/integrations`)).body).toHaveLength(1);

    const member = await kit.addBot(guild.id);
    expect((await member.api.delete(`/guilds/${guild.id}/integrations/${integration.id}`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await api.get(`/guilds/${guild.id}/integrations`)).body.map((i: Integration) => i.id)).toContain(integration.id);
  });
});

describe("a bot removed by other paths", () => {
  it("takes its integration with it when kicked or banned, and gets a new one when it comes back", async () => {
    const { guild, api, added, integration } = await guildWithBot();
    expect((await api.delete(`/guilds/${guild.id}/members/${added.user.id}`)).status).toBe(204);
    expect((await api.get(`/guilds/${guild.id}/integrations`)).body).toEqual([]);
    expect(await kit.eventsOf(guild.id, E.IntegrationDelete)).toEqual([{ id: integration.id, guild_id: guild.id, application_id: added.application.id }]);

    await addGuildMember({ db: app.db, actor: null }, { guildId: guild.id, userId: added.user.id });
    const again = (await api.get<Integration[]>(`/guilds/${guild.id}/integrations`)).body;
    expect(again).toHaveLength(1);
    expect(again[0]!.id).not.toBe(integration.id);
    expect(again[0]).not.toHaveProperty("user");

    expect((await api.put(`/guilds/${guild.id}/bans/${added.user.id}`, {})).status).toBe(204);
    expect((await api.get(`/guilds/${guild.id}/integrations`)).body).toEqual([]);
    expect(await kit.eventsOf(guild.id, E.IntegrationDelete)).toHaveLength(2);
    expect(await kit.eventsOf(guild.id, E.GuildIntegrationsUpdate)).toHaveLength(4);
  });
});

describe("integration router", () => {
  it("lists and removes with a reason for the dashboard, and refuses without MANAGE_GUILD", async () => {
    const { guild, added, integration } = await guildWithBot();
    const manager = await kit.addUser(guild.id, [(await kit.addRole(guild.id, 3, { permissions: P.ManageGuild })).id]);
    const plain = await kit.addUser(guild.id);
    const asManager = createCaller({ db: app.db, userId: manager.user.id });
    await expect(createCaller({ db: app.db, userId: plain.user.id }).integration.list({ guildId: guild.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await asManager.integration.list({ guildId: guild.id })).map((i) => i.id)).toEqual([integration.id]);

    await asManager.integration.remove({ guildId: guild.id, integrationId: integration.id, reason: "Spam bot" });
    expect(await kit.memberRow(guild.id, added.user.id)).toBeNull();
    expect((await kit.auditOf(guild.id, AuditLogEvent.IntegrationDelete))[0]).toMatchObject({ userId: manager.user.id, reason: "Spam bot" });
    await expect(asManager.integration.remove({ guildId: guild.id, integrationId: integration.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
