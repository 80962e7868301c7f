import { AuditLogEvent, ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createCaller } from "~/server/trpc/root.ts";
import { writeGuildState } from "~/test/factories.ts";
import { PNG } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { webhookKit } from "~/test/webhook-kit.ts";

const app = useTestApp();
const kit = webhookKit(app);

describe("webhook router (dashboard)", () => {
  it("shows a manager the channel's webhooks and the channels a webhook may move to; creates, moves and deletes with reasons", async () => {
    const { guild, text } = await kit.setup();
    const role = await kit.addRole(guild.id, 3, { permissions: P.ManageWebhooks | P.ViewChannel });
    const manager = await kit.addUser(guild.id, [role.id]);
    const closed = await kit.addChannel(guild.id, ChannelType.GuildText, "closed");
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.permissionOverwrite.create({ data: { channelId: closed.id, targetId: role.id, type: 0, allow: 0n, deny: P.ManageWebhooks } }),
    );
    const voice = await kit.addChannel(guild.id, ChannelType.GuildVoice, "talk");
    const category = await kit.addChannel(guild.id, ChannelType.GuildCategory, "a category");
    const caller = createCaller({ db: app.db, userId: manager.user.id });

    const created = await caller.webhook.create({ channelId: text.id, body: { name: "Alerts", avatar: PNG }, reason: "monitoring" });
    expect(created).toMatchObject({ name: "Alerts", user: { id: manager.user.id }, application_id: null });
    const view = await caller.webhook.channel({ channelId: text.id });
    expect(view.blockedReason).toBeNull();
    expect(view.webhooks.map((w) => w.id)).toEqual([created.id]);
    const targets = view.moveTargets.map((c) => c.id);
    expect(targets).toEqual(expect.arrayContaining([text.id, voice.id]));
    expect(targets).not.toContain(closed.id);
    expect(targets).not.toContain(category.id);

    await caller.webhook.modify({ webhookId: created.id, body: { channel_id: voice.id }, reason: "move" });
    expect((await caller.webhook.channel({ channelId: voice.id })).webhooks.map((w) => w.id)).toEqual([created.id]);
    await caller.webhook.delete({ webhookId: created.id, reason: "done" });
    expect((await kit.auditOf(guild.id, AuditLogEvent.WebhookDelete))[0]).toMatchObject({ userId: manager.user.id, reason: "done" });
    expect((await kit.auditOf(guild.id, AuditLogEvent.WebhookCreate))[0]).toMatchObject({ reason: "monitoring" });
  });

  it("says why a member without MANAGE_WEBHOOKS sees no webhooks, and refuses their changes", async () => {
    const { guild, api, text } = await kit.setup();
    await kit.webhook(api, text.id);
    const member = await kit.addUser(guild.id);
    const caller = createCaller({ db: app.db, userId: member.user.id });
    expect(await caller.webhook.channel({ channelId: text.id })).toMatchObject({ blockedReason: "Needs Manage Webhooks in this channel", webhooks: [] });
    await expect(caller.webhook.create({ channelId: text.id, body: { name: "mine" } })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("sends a test message through the webhook for its manager and answers it; refuses an empty one and callers without Manage Webhooks", async () => {
    const { guild, api, text } = await kit.setup();
    const hook = await kit.webhook(api, text.id, "Tester");
    const role = await kit.addRole(guild.id, 3, { permissions: P.ManageWebhooks | P.ViewChannel });
    const { user } = await kit.addUser(guild.id, [role.id]);
    const manager = createCaller({ db: app.db, userId: user.id });
    const content = `ping <@${user.id}>`;
    const sent = await manager.webhook.sendTest({ webhookId: hook.id, content, embed: { title: "Status", description: `all good in <#${text.id}>` } });
    expect(sent.message).toMatchObject({ content, channel_id: text.id, webhook_id: hook.id, author: { username: "Tester" } });
    expect(sent.message.embeds).toEqual([expect.objectContaining({ title: "Status", description: `all good in <#${text.id}>` })]);
    // With the names its mentions point at, as the channel's Messages view gets them.
    expect(sent.users).toEqual([{ id: user.id, name: user.globalName ?? user.username }]);
    expect(sent.channels.map((channel) => channel.id)).toContain(text.id);
    expect(await app.db.message.count({ where: { webhookId: hook.id } })).toBe(1);
    await expect(manager.webhook.sendTest({ webhookId: hook.id })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "Cannot send an empty message" });
    const outsider = createCaller({ db: app.db, userId: (await kit.addUser(guild.id)).user.id });
    await expect(outsider.webhook.sendTest({ webhookId: hook.id, content: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
