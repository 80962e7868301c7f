import { AuditLogEvent, ChannelType, GatewayDispatchEvents as E, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { readImage } from "~/server/images/image.service.ts";
import { makeBot, makeGuild, writeGuildState } from "~/test/factories.ts";
import { MISSING_PERMISSIONS, PNG, UNAUTHORIZED } from "~/test/member-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { UNKNOWN_WEBHOOK, webhookKit } from "~/test/webhook-kit.ts";
import { CHANNEL_WEBHOOKS_MAX } from "./webhook.schema.ts";

const app = useTestApp();
const kit = webhookKit(app);

describe("POST /channels/:channelId/webhooks", () => {
  it("creates an incoming webhook with a 68-character token, its URL, the creator and the bot's application; Webhooks Update; WEBHOOK_CREATE with the reason", async () => {
    const { guild, owner, api, text } = await kit.setup();
    const res = await kit.create(api, text.id, { name: "  Build   bot ", avatar: PNG }, "for CI");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 1,
      guild_id: guild.id,
      channel_id: text.id,
      name: "Build bot",
      application_id: owner.application.id,
      user: { id: owner.user.id },
    });
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{68}$/);
    expect(res.body.url).toBe(`http://127.0.0.1:3000/api/webhooks/${res.body.id}/${res.body.token}`);
    expect(res.body.avatar).toMatch(/^[0-9a-f]{32}$/);
    expect(await readImage(app.db, `/cdn/avatars/${res.body.id}/${String(res.body.avatar)}.png`)).toMatchObject({ contentType: "image/png" });
    expect(await kit.eventsOf(guild.id, E.WebhooksUpdate)).toEqual([{ guild_id: guild.id, channel_id: text.id }]);
    const audit = await kit.auditOf(guild.id, AuditLogEvent.WebhookCreate);
    expect(audit).toEqual([
      expect.objectContaining({
        userId: owner.user.id,
        targetId: res.body.id,
        reason: "for CI",
        changes: expect.arrayContaining([
          { key: "name", new_value: "Build bot" },
          { key: "channel_id", new_value: text.id },
          { key: "type", new_value: 1 },
        ]),
      }),
    ]);
  });

  it("draws a different token for every webhook", async () => {
    const { api, text } = await kit.setup();
    const a = await kit.webhook(api, text.id);
    const b = await kit.webhook(api, text.id);
    expect(a.token).not.toBe(b.token);
  });

  it("takes names of 1 to 80 characters, something visible, without the reserved brand words in any case or letters (50035 on name)", async () => {
    const { api, text } = await kit.setup();
    expect((await kit.create(api, text.id, { name: "x".repeat(80) })).status).toBe(200);
    expect((await kit.create(api, text.id, { name: "é".repeat(80) })).status).toBe(200);
    const refused: [unknown, string][] = [
      ["x".repeat(81), "BASE_TYPE_BAD_LENGTH"],
      ["", "BASE_TYPE_BAD_LENGTH"],
      ["   ", "BASE_TYPE_BAD_LENGTH"],
      ["My Discord hook", "USERNAME_INVALID_CONTAINS"],
      ["CLYDE", "USERNAME_INVALID_CONTAINS"],
      ["notclydeatall", "USERNAME_INVALID_CONTAINS"],
      ["dIsCoRd", "USERNAME_INVALID_CONTAINS"],
      ["\u200b\u200d\u3164", "BASE_TYPE_BAD_LENGTH"],
      ["Dіscоrd", "USERNAME_INVALID_CONTAINS"],
      ["cl\u200byde", "USERNAME_INVALID_CONTAINS"],
      [undefined, "BASE_TYPE_REQUIRED"],
      [12, "BASE_TYPE_STRING"],
    ];
    for (const [name, code] of refused) {
      const res = await kit.create(api, text.id, { name });
      expect(res.status, String(name)).toBe(400);
      expect(res.body.code).toBe(50035);
      expect(res.body.errors.name._errors[0].code, String(name)).toBe(code);
    }
    const badAvatar = await kit.create(api, text.id, { name: "ok", avatar: "data:image/png;base64,AAAA" });
    expect(badAvatar.body.errors.avatar._errors[0].code).toBe("IMAGE_INVALID");
  });

  it("needs MANAGE_WEBHOOKS in the channel, a channel webhooks can post in, and allows 15 per channel", async () => {
    const { guild, api, text } = await kit.setup();
    const member = await kit.addBot(guild.id);
    expect((await kit.create(member.api, text.id, { name: "x" })).body).toEqual(MISSING_PERMISSIONS);
    expect((await app.as().post(`/channels/${text.id}/webhooks`, { name: "x" })).body).toEqual(UNAUTHORIZED);
    const category = await kit.addChannel(guild.id, ChannelType.GuildCategory);
    expect((await kit.create(api, category.id, { name: "x" })).body.code).toBe(50024);
    const forum = await kit.addChannel(guild.id, ChannelType.GuildForum);
    expect((await kit.create(api, forum.id, { name: "x" })).status).toBe(200);
    for (let i = 0; i < CHANNEL_WEBHOOKS_MAX; i++) await kit.webhook(api, text.id, `hook ${i}`);
    expect((await kit.create(api, text.id, { name: "one more" })).body).toMatchObject({ code: 30007 });
    expect(await app.db.webhook.count({ where: { channelId: text.id } })).toBe(CHANNEL_WEBHOOKS_MAX);
  });
});

describe("GET webhooks", () => {
  it("lists a channel's and a guild's webhooks with token and creator for managers, 50013 for others", async () => {
    const { guild, owner, api, text } = await kit.setup();
    const voice = await kit.addChannel(guild.id, ChannelType.GuildVoice);
    const a = await kit.webhook(api, text.id, "a");
    const b = await kit.webhook(api, voice.id, "b");
    const inText = await api.get(`/channels/${text.id}/webhooks`);
    expect(inText.body).toEqual([expect.objectContaining({ id: a.id, token: a.token, url: a.url, user: expect.objectContaining({ id: owner.user.id }) })]);
    expect((await api.get(`/guilds/${guild.id}/webhooks`)).body.map((w: { id: string }) => w.id)).toEqual([a.id, b.id]);
    const member = await kit.addBot(guild.id);
    expect((await member.api.get(`/channels/${text.id}/webhooks`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await member.api.get(`/guilds/${guild.id}/webhooks`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await member.api.get(`/webhooks/${a.id}`)).body).toEqual(MISSING_PERMISSIONS);
    const manager = await kit.addManager(guild.id);
    expect((await manager.api.get(`/webhooks/${a.id}`)).body).toMatchObject({ id: a.id, token: a.token, name: "a" });
  });

  it("answers GET /webhooks/{id} to the owning application without MANAGE_WEBHOOKS, and 10015 for an unknown id", async () => {
    const { guild, api, text } = await kit.setup();
    const maker = await kit.addManager(guild.id);
    const hook = await kit.webhook(maker.api, text.id);
    expect(hook.application_id).toBe(maker.application.id);
    // The role that granted MANAGE_WEBHOOKS is gone; the application still owns its webhook.
    await kit.updateMember(guild.id, maker.user.id, { roles: { deleteMany: {} } });
    expect((await maker.api.get(`/channels/${text.id}/webhooks`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await maker.api.get(`/webhooks/${hook.id}`)).body).toMatchObject({ id: hook.id, application_id: maker.application.id });
    expect((await api.get("/webhooks/1234567890123456789")).body).toEqual(UNKNOWN_WEBHOOK);
  });
});

describe("PATCH /webhooks/:webhookId", () => {
  it("renames, sets and clears the avatar, and moves to another channel of the guild: Webhooks Update for both channels, WEBHOOK_UPDATE", async () => {
    const { guild, api, text } = await kit.setup();
    const other = await kit.addChannel(guild.id, ChannelType.GuildAnnouncement);
    const hook = await kit.webhook(api, text.id, "old");
    const res = await api.patch(`/webhooks/${hook.id}`, { name: "new", avatar: PNG, channel_id: other.id }, { headers: { "X-Audit-Log-Reason": "tidy" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hook.id, name: "new", channel_id: other.id, token: hook.token });
    expect(res.body.avatar).toMatch(/^[0-9a-f]{32}$/);
    expect((await kit.eventsOf(guild.id, E.WebhooksUpdate)).slice(1)).toEqual([
      { guild_id: guild.id, channel_id: text.id },
      { guild_id: guild.id, channel_id: other.id },
    ]);
    const [entry] = await kit.auditOf(guild.id, AuditLogEvent.WebhookUpdate);
    expect(entry).toMatchObject({ targetId: hook.id, reason: "tidy" });
    expect(entry!.changes).toEqual(
      expect.arrayContaining([
        { key: "name", old_value: "old", new_value: "new" },
        { key: "channel_id", old_value: text.id, new_value: other.id },
      ]),
    );
    expect((await api.patch(`/webhooks/${hook.id}`, { avatar: null })).body.avatar).toBeNull();
    expect((await api.get(`/channels/${other.id}/webhooks`)).body).toHaveLength(1);
    expect((await api.get(`/channels/${text.id}/webhooks`)).body).toEqual([]);
  });

  it("refuses another guild's channel (50035 on channel_id), bad names, and callers without MANAGE_WEBHOOKS in both channels", async () => {
    const { guild, api, text } = await kit.setup();
    const hook = await kit.webhook(api, text.id);
    const elsewhere = await makeGuild(app.db, (await makeBot(app.db)).actor);
    const foreign = await app.db.channel.findFirstOrThrow({ where: { guildId: elsewhere.id, type: ChannelType.GuildText } });
    const moved = await api.patch(`/webhooks/${hook.id}`, { channel_id: foreign.id });
    expect(moved.status).toBe(400);
    expect(moved.body.errors.channel_id._errors[0].code).toBe("WEBHOOK_CHANNEL_INVALID");
    expect((await api.patch(`/webhooks/${hook.id}`, { name: "discord" })).body.errors.name._errors[0].code).toBe("USERNAME_INVALID_CONTAINS");
    // A manager shut out of the target channel cannot move a webhook there.
    const manager = await kit.addManager(guild.id);
    const closed = await kit.addChannel(guild.id, ChannelType.GuildText, "closed");
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.permissionOverwrite.create({ data: { channelId: closed.id, targetId: manager.role.id, type: 0, allow: 0n, deny: P.ManageWebhooks } }),
    );
    expect((await manager.api.patch(`/webhooks/${hook.id}`, { channel_id: closed.id })).body).toEqual(MISSING_PERMISSIONS);
    expect((await app.db.webhook.findUniqueOrThrow({ where: { id: hook.id } })).channelId).toBe(text.id);
    const member = await kit.addBot(guild.id);
    expect((await member.api.patch(`/webhooks/${hook.id}`, { name: "mine" })).body).toEqual(MISSING_PERMISSIONS);
  });
});

describe("DELETE /webhooks/:webhookId", () => {
  it("deletes with MANAGE_WEBHOOKS: 204, Webhooks Update, WEBHOOK_DELETE with the reason; then 10015", async () => {
    const { guild, owner, api, text } = await kit.setup();
    const hook = await kit.webhook(api, text.id, "gone soon");
    const member = await kit.addBot(guild.id);
    expect((await member.api.delete(`/webhooks/${hook.id}`)).body).toEqual(MISSING_PERMISSIONS);
    const res = await api.delete(`/webhooks/${hook.id}`, { headers: { "X-Audit-Log-Reason": "unused" } });
    expect(res.status).toBe(204);
    expect(await kit.eventsOf(guild.id, E.WebhooksUpdate)).toHaveLength(2);
    expect(await kit.auditOf(guild.id, AuditLogEvent.WebhookDelete)).toEqual([
      expect.objectContaining({
        userId: owner.user.id,
        targetId: hook.id,
        reason: "unused",
        changes: expect.arrayContaining([{ key: "name", old_value: "gone soon" }]),
      }),
    ]);
    expect((await api.delete(`/webhooks/${hook.id}`)).body).toEqual(UNKNOWN_WEBHOOK);
    expect((await app.as(bot(owner.token)).get(`/webhooks/${hook.id}`)).body).toEqual(UNKNOWN_WEBHOOK);
  });
});
