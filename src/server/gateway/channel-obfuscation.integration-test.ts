import {
  ChannelFlags,
  ChannelType,
  GatewayCapabilityBits,
  GatewayIntentBits as I,
  OverwriteType,
  PermissionFlagsBits as P,
  type APIChannel,
  type GatewayGuildCreateDispatchData,
} from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { editApplication } from "~/server/applications/application.service.ts";
import { botInGuilds, identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { bot as botAuth } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";

const app = useTestApp();
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } },
});

const INTENTS = I.Guilds | I.GuildMessages;
const OBFUSCATION = { intents: INTENTS, capabilities: GatewayCapabilityBits.ChannelObfuscation };
const hiddenFrom = (guildId: string) => [
  { id: guildId, type: OverwriteType.Role, allow: "0", deny: String(P.ViewChannel), allow_new: "0", deny_new: String(P.ViewChannel) },
];

/** A bot in a guild whose owner made a #staff channel @everyone cannot view. */
async function withHiddenChannel() {
  const { owner, bot, guildIds } = await botInGuilds(app, 1);
  const guildId = guildIds[0]!;
  const api = app.as(botAuth(owner.token));
  const staff = await api.post(`/guilds/${guildId}/channels`, { name: "staff", topic: "the plans", nsfw: true, permission_overwrites: hiddenFrom(guildId) });
  expect(staff.status).toBe(200);
  return { owner, bot, guildId, api, staff: staff.body as APIChannel & { position: number; parent_id: string | null } };
}

/** The obfuscated form of a channel, as the wire shows it. */
function obfuscated(guildId: string, channel: { id: string; type: number; position: number; parent_id?: string | null }) {
  return expect.objectContaining({
    id: channel.id,
    type: channel.type,
    name: "___hidden___",
    position: channel.position,
    flags: ChannelFlags.ChannelObfuscated,
    permission_overwrites: hiddenFrom(guildId),
    topic: null,
    nsfw: null,
    last_message_id: null,
  });
}

async function guildCreateChannels(token: string, fields: Record<string, unknown>) {
  const { client } = await identified(server, token, fields);
  const created = (await client.dispatch("GUILD_CREATE")).d as GatewayGuildCreateDispatchData;
  return { client, channels: created.channels };
}

describe("GUILD_CREATE", () => {
  it("leaves a channel the bot cannot view out, unless IDENTIFY asks for obfuscated channels", async () => {
    const { bot, guildId, staff } = await withHiddenChannel();
    const plain = await guildCreateChannels(bot.token, { intents: INTENTS });
    expect(plain.channels.map((channel) => channel.id)).not.toContain(staff.id);
    expect(plain.channels.map((channel) => channel.name)).toContain("general");

    const asked = await guildCreateChannels(bot.token, OBFUSCATION);
    const hidden = asked.channels.find((channel) => channel.id === staff.id);
    expect(hidden).toEqual(obfuscated(guildId, staff));
    expect(JSON.stringify(hidden)).not.toContain("the plans");
    // Channels the bot can view are sent as they are.
    expect(asked.channels.find((channel) => channel.name === "general")).toMatchObject({ flags: 0 });
  });

  it("sends obfuscated channels to every session of an application that switched the setting on, and keeps it on RESUME's row", async () => {
    const { bot, guildId, staff } = await withHiddenChannel();
    await editApplication({ db: app.db, actor: null }, bot.application.id, { channelObfuscation: true });
    const { channels, client } = await guildCreateChannels(bot.token, { intents: INTENTS });
    expect(channels.find((channel) => channel.id === staff.id)).toEqual(obfuscated(guildId, staff));
    client.terminate();
    const stored = await app.db.gatewaySession.findFirstOrThrow({ where: { botUserId: bot.user.id } });
    expect(stored.channelObfuscation).toBe(true);
  });
});

describe("channel events", () => {
  it("sends CHANNEL_CREATE of a hidden channel obfuscated to a session that asked, and nothing to one that did not", async () => {
    const { bot, guildId, api } = await withHiddenChannel();
    const asked = (await guildCreateChannels(bot.token, OBFUSCATION)).client;
    const plain = (await guildCreateChannels(bot.token, { intents: INTENTS })).client;
    const secret = (await api.post(`/guilds/${guildId}/channels`, { name: "secret", topic: "hush", permission_overwrites: hiddenFrom(guildId) }))
      .body as APIChannel & {
      position: number;
    };
    const created = await asked.dispatch("CHANNEL_CREATE");
    expect(created.d).toEqual(obfuscated(guildId, secret));
    expect((created.d as { guild_id: string }).guild_id).toBe(guildId);
    const open = (await api.post(`/guilds/${guildId}/channels`, { name: "open" })).body as APIChannel;
    // The session that did not ask hears of the open channel first: the hidden one never reached it.
    expect((await plain.dispatch("CHANNEL_CREATE")).d).toMatchObject({ id: open.id, name: "open" });
  });

  it("sends the obfuscated form when an update hides a channel, and never a message posted in it", async () => {
    const { bot, guildId, api } = await withHiddenChannel();
    const { client } = await guildCreateChannels(bot.token, OBFUSCATION);
    const lounge = (await api.post(`/guilds/${guildId}/channels`, { name: "lounge", type: ChannelType.GuildText })).body as APIChannel & { position: number };
    expect((await client.dispatch("CHANNEL_CREATE")).d).toMatchObject({ id: lounge.id, name: "lounge", flags: 0 });

    expect((await api.patch(`/channels/${lounge.id}`, { permission_overwrites: hiddenFrom(guildId) })).status).toBe(200);
    expect((await client.dispatch("CHANNEL_UPDATE")).d).toEqual(obfuscated(guildId, lounge));

    expect((await api.post(`/channels/${lounge.id}/messages`, { content: "not for bots" })).status).toBe(200);
    expect((await api.patch(`/channels/${lounge.id}`, { topic: "still hidden" })).status).toBe(200);
    const update = await client.waitFor((frame) => frame.op === 0 && frame.t !== "GUILD_CREATE", "the next dispatch");
    expect(update.t).toBe("CHANNEL_UPDATE");
    expect(update.d).toEqual(obfuscated(guildId, lounge));

    expect((await api.delete(`/channels/${lounge.id}`)).status).toBe(200);
    expect((await client.dispatch("CHANNEL_DELETE")).d).toEqual(obfuscated(guildId, lounge));
  });
});
