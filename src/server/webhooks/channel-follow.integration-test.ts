import { AuditLogEvent, ChannelType, GatewayDispatchEvents as E, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { readImage } from "~/server/images/image.service.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember } from "~/test/factories.ts";
import { followKit } from "~/test/follow-kit.ts";
import { MISSING_ACCESS, MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { INVALID_WEBHOOK_TOKEN } from "~/test/webhook-kit.ts";
import { CHANNEL_WEBHOOKS_MAX } from "./webhook.schema.ts";

const app = useTestApp();
const kit = followKit(app);

const WRONG_CHANNEL_TYPE = { code: 50024, message: "Cannot execute action on this channel type" };

describe("POST /channels/{channel.id}/followers", () => {
  it("makes a tokenless channel follower webhook in the target, named and drawn after the source guild and channel; Webhooks Update and WEBHOOK_CREATE there", async () => {
    const source = await kit.publisher();
    const target = await kit.follower(source.guild.id);
    const res = await kit.follow(target.api, source.news.id, target.text.id, "news feed");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ channel_id: source.news.id, webhook_id: expect.stringMatching(/^\d+$/) });

    // The list answers are checked against ChannelFollowerWebhookResponse by the test app.
    const listed = await target.api.get(`/channels/${target.text.id}/webhooks`);
    expect(listed.body).toEqual([
      {
        id: res.body.webhook_id,
        type: 2,
        guild_id: target.guild.id,
        channel_id: target.text.id,
        user: expect.objectContaining({ id: target.owner.user.id }),
        name: `${source.name} #news`,
        avatar: source.icon,
        application_id: target.owner.application.id,
        source_guild: { id: source.guild.id, name: source.name, icon: source.icon },
        source_channel: { id: source.news.id, name: "news" },
      },
    ]);
    expect((await target.api.get(`/guilds/${target.guild.id}/webhooks`)).body).toEqual(listed.body);
    expect((await target.api.get(`/webhooks/${res.body.webhook_id}`)).body).toEqual(listed.body[0]);
    expect(await readImage(app.db, `/cdn/avatars/${res.body.webhook_id}/${source.icon}.png`)).toMatchObject({ contentType: "image/png" });

    expect(await kit.eventsOf(target.guild.id, E.WebhooksUpdate)).toEqual([{ guild_id: target.guild.id, channel_id: target.text.id }]);
    expect(await kit.eventsOf(source.guild.id, E.WebhooksUpdate)).toEqual([]);
    expect(await kit.auditOf(target.guild.id, AuditLogEvent.WebhookCreate)).toEqual([
      expect.objectContaining({
        userId: target.owner.user.id,
        targetId: res.body.webhook_id,
        reason: "news feed",
        changes: expect.arrayContaining([{ key: "type", new_value: 2 }]),
      }),
    ]);
  });

  it("follows only announcement channels (50024), into text or announcement channels (50035 on webhook_channel_id)", async () => {
    const source = await kit.publisher();
    const target = await kit.follower(source.guild.id);
    expect((await kit.follow(target.api, source.text.id, target.text.id)).body).toEqual(WRONG_CHANNEL_TYPE);
    const voice = await kit.follow(target.api, source.news.id, target.voice.id);
    expect([voice.status, voice.body.code, voice.body.errors.webhook_channel_id._errors[0].code]).toEqual([400, 50035, "CHANNEL_TYPE_INVALID"]);
    const announcements = await kit.addChannel(target.guild.id, ChannelType.GuildAnnouncement);
    expect((await kit.follow(target.api, source.news.id, announcements.id)).status).toBe(200);
    const missing = await target.api.post(`/channels/${source.news.id}/followers`, {});
    expect(missing.body.errors.webhook_channel_id._errors[0].code).toBe("BASE_TYPE_REQUIRED");
    expect((await kit.follow(target.api, "1234567890123456789", target.text.id)).body).toMatchObject({ code: 10003 });
  });

  it("needs MANAGE_WEBHOOKS in the target and VIEW_CHANNEL on the source", async () => {
    const source = await kit.publisher();
    const target = await kit.follower(source.guild.id);
    // A member of both guilds without MANAGE_WEBHOOKS in the target.
    await kit.setEveryone(target.guild.id, P.ViewChannel | P.SendMessages);
    const member = await kit.addBot(target.guild.id);
    await addMember(app.db, source.guild.id, member.user.id);
    expect((await kit.follow(member.api, source.news.id, target.text.id)).body).toEqual(MISSING_PERMISSIONS);
    expect(await app.db.webhook.count({ where: { channelId: target.text.id } })).toBe(0);

    // The source hidden from @everyone: the follower cannot see it.
    await kit.addOverwrite(source.news.id, source.guild.id, { id: source.guild.id, type: 0, deny: P.ViewChannel });
    expect((await kit.follow(target.api, source.news.id, target.text.id)).body).toEqual(MISSING_ACCESS);
    // Not in the source's guild at all.
    const stranger = await kit.setup();
    expect((await kit.follow(stranger.api, source.news.id, stranger.text.id)).body).toEqual(MISSING_ACCESS);
    expect(await app.db.webhook.count({ where: { sourceChannelId: source.news.id } })).toBe(0);
  });

  it("counts against the target channel's 15 webhooks (30007)", async () => {
    const source = await kit.publisher();
    const target = await kit.follower(source.guild.id);
    for (let i = 0; i < CHANNEL_WEBHOOKS_MAX; i++) expect((await kit.follow(target.api, source.news.id, target.text.id)).status).toBe(200);
    expect((await kit.follow(target.api, source.news.id, target.text.id)).body).toMatchObject({ code: 30007 });
    expect((await target.api.post(`/channels/${target.text.id}/webhooks`, { name: "one more" })).body).toMatchObject({ code: 30007 });
  });

  it("cannot be executed by token (it has none), is deleted like any webhook, and outlives its source channel", async () => {
    const source = await kit.publisher();
    const target = await kit.follower(source.guild.id);
    const followed = (await kit.follow(target.api, source.news.id, target.text.id)).body as { webhook_id: string };
    const id = followed.webhook_id;
    expect((await app.as().post(`/webhooks/${id}/anything`, { content: "spoofed" })).body).toEqual(INVALID_WEBHOOK_TOKEN);
    expect((await app.as().get(`/webhooks/${id}/anything`)).body).toEqual(INVALID_WEBHOOK_TOKEN);
    expect(await app.db.message.count({ where: { channelId: target.text.id } })).toBe(0);

    expect((await source.api.delete(`/channels/${source.news.id}`)).status).toBe(200);
    const [kept] = (await target.api.get(`/channels/${target.text.id}/webhooks`)).body;
    expect(kept).toMatchObject({ id, type: 2, source_guild: { id: source.guild.id } });
    expect(kept.source_channel).toBeUndefined();

    expect((await target.api.delete(`/webhooks/${id}`)).status).toBe(204);
    expect((await target.api.get(`/channels/${target.text.id}/webhooks`)).body).toEqual([]);
  });

  it("follows from the dashboard with the same rules, offering the channels of the user's guilds where they manage webhooks", async () => {
    const source = await kit.publisher();
    const target = await kit.follower(source.guild.id);
    const role = await kit.addRole(target.guild.id, 2, { permissions: P.ViewChannel | P.ManageWebhooks });
    const manager = await kit.addUser(target.guild.id, [role.id]);
    await addMember(app.db, source.guild.id, manager.user.id);
    const closed = await kit.addChannel(target.guild.id, ChannelType.GuildText, { name: "closed" });
    await kit.addOverwrite(closed.id, target.guild.id, { id: role.id, type: 0, deny: P.ManageWebhooks });
    const offered = await createCaller({ db: app.db, userId: manager.user.id }).webhook.followTargets({ channelId: source.news.id });
    expect(offered.blockedReason).toBeNull();
    // Their guild's text and announcement channels where they manage webhooks (not voice, not "closed"); not the source guild, where they are a plain member.
    expect(offered.guilds).toEqual([{ id: target.guild.id, name: expect.any(String), channels: [{ id: target.text.id, name: expect.any(String) }] }]);
    const caller = createCaller({ db: app.db, userId: target.owner.user.id });
    expect((await caller.webhook.followTargets({ channelId: source.text.id })).blockedReason).toBe("Only announcement channels can be followed");
    const followed = await caller.webhook.follow({ channelId: source.news.id, body: { webhook_channel_id: target.text.id }, reason: "from the dashboard" });
    expect(followed.channel_id).toBe(source.news.id);
    expect((await kit.auditOf(target.guild.id, AuditLogEvent.WebhookCreate))[0]).toMatchObject({ reason: "from the dashboard" });
    await expect(caller.webhook.follow({ channelId: source.text.id, body: { webhook_channel_id: target.text.id } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});
