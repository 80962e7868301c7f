import { ChannelType, GatewayDispatchEvents as E, AuditLogEvent } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { PNG } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { INVALID_WEBHOOK_TOKEN, UNKNOWN_WEBHOOK, webhookKit } from "~/test/webhook-kit.ts";

const app = useTestApp();
const kit = webhookKit(app);
/** No Authorization header: the token in the path is the credential. */
const anonymous = () => app.as();

describe("the /webhooks/{id}/{token} forms", () => {
  it("reads the webhook without authentication and without its creator", async () => {
    const { api, text } = await kit.setup();
    const hook = await kit.webhook(api, text.id, "Deploys");
    const res = await anonymous().get(`/webhooks/${hook.id}/${hook.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hook.id, name: "Deploys", channel_id: text.id, token: hook.token });
    expect(res.body).not.toHaveProperty("user");
  });

  it("answers 401/50027 for a wrong token and 10015 for an unknown id", async () => {
    const { api, text } = await kit.setup();
    const hook = await kit.webhook(api, text.id);
    const wrong = `${hook.token.slice(0, -1)}${hook.token.endsWith("A") ? "B" : "A"}`;
    for (const call of [
      () => anonymous().get(`/webhooks/${hook.id}/${wrong}`),
      () => anonymous().patch(`/webhooks/${hook.id}/${wrong}`, { name: "taken" }),
      () => anonymous().delete(`/webhooks/${hook.id}/${wrong}`),
      () => anonymous().get(`/webhooks/${hook.id}/short`),
    ]) {
      const res = await call();
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID_WEBHOOK_TOKEN);
    }
    const unknown = await anonymous().get(`/webhooks/1234567890123456789/${hook.token}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(UNKNOWN_WEBHOOK);
    expect((await app.db.webhook.findUniqueOrThrow({ where: { id: hook.id } })).name).toBe("Build bot");
  });

  it("renames and sets the avatar with the token, ignores channel_id, and answers without the creator; Webhooks Update and WEBHOOK_UPDATE", async () => {
    const { guild, api, text } = await kit.setup();
    const other = await kit.addChannel(guild.id, ChannelType.GuildText);
    const hook = await kit.webhook(api, text.id, "before");
    const res = await anonymous().patch(`/webhooks/${hook.id}/${hook.token}`, { name: "after", avatar: PNG, channel_id: other.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hook.id, name: "after", channel_id: text.id });
    expect(res.body.avatar).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body).not.toHaveProperty("user");
    expect(await kit.eventsOf(guild.id, E.WebhooksUpdate)).toHaveLength(2);
    expect(await kit.auditOf(guild.id, AuditLogEvent.WebhookUpdate)).toEqual([
      expect.objectContaining({ userId: null, targetId: hook.id, changes: expect.arrayContaining([{ key: "name", old_value: "before", new_value: "after" }]) }),
    ]);
    const bad = await anonymous().patch(`/webhooks/${hook.id}/${hook.token}`, { name: "Clyde's" });
    expect(bad.body.errors.name._errors[0].code).toBe("USERNAME_INVALID_CONTAINS");
  });

  it("deletes with the token: 204, Webhooks Update, then 10015", async () => {
    const { guild, api, text } = await kit.setup();
    const hook = await kit.webhook(api, text.id);
    const res = await anonymous().delete(`/webhooks/${hook.id}/${hook.token}`);
    expect(res.status).toBe(204);
    expect(await kit.eventsOf(guild.id, E.WebhooksUpdate)).toHaveLength(2);
    expect(await kit.auditOf(guild.id, AuditLogEvent.WebhookDelete)).toHaveLength(1);
    expect((await anonymous().get(`/webhooks/${hook.id}/${hook.token}`)).body).toEqual(UNKNOWN_WEBHOOK);
  });
});

describe("webhooks going with what they belong to", () => {
  it("deleting a channel deletes its webhooks with Webhooks Update, and leaves other channels' alone", async () => {
    const { guild, api, text } = await kit.setup();
    const other = await kit.addChannel(guild.id, ChannelType.GuildText);
    const doomed = await kit.webhook(api, other.id);
    const kept = await kit.webhook(api, text.id);
    expect((await api.delete(`/channels/${other.id}`)).status).toBe(200);
    expect(await app.db.webhook.findUnique({ where: { id: doomed.id } })).toBeNull();
    expect((await anonymous().get(`/webhooks/${doomed.id}/${doomed.token}`)).body).toEqual(UNKNOWN_WEBHOOK);
    expect((await api.get(`/guilds/${guild.id}/webhooks`)).body.map((w: { id: string }) => w.id)).toEqual([kept.id]);
    expect((await kit.eventsOf(guild.id, E.WebhooksUpdate)).at(-1)).toEqual({ guild_id: guild.id, channel_id: other.id });
  });

  it("deleting an integration removes the webhooks its application made in that guild, and only those", async () => {
    const { guild, api, text } = await kit.setup();
    const added = await kit.addManager(guild.id);
    const appHook = await kit.webhook(added.api, text.id, "from the app");
    const ownerHook = await kit.webhook(api, text.id, "from the owner");
    const integrations = await api.get<{ id: string; application?: { id: string } }[]>(`/guilds/${guild.id}/integrations`);
    const integration = integrations.body.find((row) => row.application?.id === added.application.id)!;
    const before = (await kit.eventsOf(guild.id, E.WebhooksUpdate)).length;
    expect((await api.delete(`/guilds/${guild.id}/integrations/${integration.id}`)).status).toBe(204);
    expect(await app.db.webhook.findUnique({ where: { id: appHook.id } })).toBeNull();
    expect(await app.db.webhook.findUnique({ where: { id: ownerHook.id } })).not.toBeNull();
    expect((await kit.eventsOf(guild.id, E.WebhooksUpdate)).slice(before)).toEqual([{ guild_id: guild.id, channel_id: text.id }]);
  });
});
