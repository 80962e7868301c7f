import { ChannelType, GatewayDispatchEvents, MessageFlags, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);

describe("POST /channels/{channel.id}/messages/{message.id}/threads", () => {
  it("starts a public thread under the message's id, flags the message, and announces both", async () => {
    const { guild, text, api, owner } = await kit.setup();
    const message = (await api.post(`/channels/${text.id}/messages`, { content: "Ticket: the bot is down" })).body;

    const started = await api.post(`/channels/${text.id}/messages/${message.id}/threads`, { name: "ticket-1", auto_archive_duration: 60 });
    expect(started.status).toBe(201);
    kit.expectThreadObject(started.body);
    expect(started.body).toMatchObject({ id: message.id, type: ChannelType.PublicThread, parent_id: text.id, owner_id: owner.user.id, name: "ticket-1" });
    expect(started.body.thread_metadata.auto_archive_duration).toBe(60);
    expect(started.body.member).toMatchObject({ user_id: owner.user.id });

    const starter = (await api.get(`/channels/${text.id}/messages/${message.id}`)).body;
    expect(starter.flags & MessageFlags.HasThread).toBe(MessageFlags.HasThread);
    // The starter links its thread, as the platform's message object does.
    expect(starter.thread).toMatchObject({ id: message.id, name: "ticket-1", parent_id: text.id });
    expect((await api.get(`/channels/${text.id}/messages?limit=1`)).body[0].thread).toMatchObject({ id: message.id });
    const updates = (await kit.eventsOf(guild.id, GatewayDispatchEvents.MessageUpdate)).filter((event) => event.id === message.id);
    expect(updates.map((event) => event.flags & MessageFlags.HasThread)).toEqual([MessageFlags.HasThread]);
    expect((await kit.eventsOf(guild.id, GatewayDispatchEvents.ThreadCreate)).map((event) => event.id)).toEqual([message.id]);

    // The thread takes messages; the message starts no second one.
    expect((await api.post(`/channels/${message.id}/messages`, { content: "Looking into it" })).status).toBe(200);
    expect((await api.post(`/channels/${text.id}/messages/${message.id}/threads`, { name: "again" })).body.code).toBe(160004);
  });

  it("needs CREATE_PUBLIC_THREADS, and a message of that channel", async () => {
    const { guild, text, api } = await kit.setup();
    await kit.setEveryone(guild.id, 0n);
    const message = (await api.post(`/channels/${text.id}/messages`, { content: "hello" })).body;
    const reader = await kit.addBotWithRole(guild.id, P.ViewChannel | P.ReadMessageHistory | P.SendMessages, 1);
    expect((await reader.api.post(`/channels/${text.id}/messages/${message.id}/threads`, { name: "no" })).body).toEqual(MISSING_PERMISSIONS);
    expect((await api.post(`/channels/${text.id}/messages/123456789012345678/threads`, { name: "none" })).body.code).toBe(10008);
    expect((await api.post(`/channels/${text.id}/messages/${message.id}/threads`, { name: "" })).status).toBe(400);
    expect(await app.db.channel.count({ where: { id: message.id } })).toBe(0);
  });
});
