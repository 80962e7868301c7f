import { ChannelType, GatewayIntentBits as I, PermissionFlagsBits as P, type GatewayTypingStartDispatchData } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "~/server/gateway/session-start-limit.ts";
import { addMember, makeBot, makeGuild } from "~/test/factories.ts";
import { identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } },
});

async function setUp() {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  const typist = await makeBot(app.db);
  const watcher = await makeBot(app.db);
  for (const who of [typist, watcher]) await addMember(app.db, guild.id, who.user.id);
  const channels = (await app.as(bot(owner.token)).get(`/guilds/${guild.id}/channels`)).body as { id: string; name: string }[];
  return { owner, guild, typist, watcher, general: channels.find((channel) => channel.name === "general")! };
}

describe("POST /channels/{id}/typing", () => {
  it("answers 204 and sends TYPING_START with the typist's member to sessions with GUILD_MESSAGE_TYPING only", async () => {
    const { guild, typist, watcher, general } = await setUp();
    const { client: typing } = await identified(server, watcher.token, { intents: I.Guilds | I.GuildMessageTyping | I.GuildMessages });
    const { client: messagesOnly } = await identified(server, watcher.token, { intents: I.Guilds | I.GuildMessages });
    const api = app.as(bot(typist.token));

    const before = Math.floor(Date.now() / 1000);
    const answer = await api.post(`/channels/${general.id}/typing`);
    expect(answer.status).toBe(204);
    expect(answer.body).toBe("");

    const event = (await typing.dispatch("TYPING_START")).d as GatewayTypingStartDispatchData;
    expect(event).toMatchObject({ channel_id: general.id, guild_id: guild.id, user_id: typist.user.id });
    expect(event.timestamp).toBeGreaterThanOrEqual(before);
    expect(event.member?.user?.id).toBe(typist.user.id);
    expect(event.member?.roles).toEqual([]);

    // A message after it reaches both: the session without the intent got no typing before it.
    expect((await api.post(`/channels/${general.id}/messages`, { content: "hello" })).status).toBe(200);
    const frames = await messagesOnly.framesThrough((frame) => frame.t === "MESSAGE_CREATE", "MESSAGE_CREATE");
    expect(frames.map((frame) => frame.t)).not.toContain("TYPING_START");
  });

  it("is refused without SEND_MESSAGES (50013) and in a channel the caller cannot see (50001), and the event does not go out", async () => {
    const { owner, guild, typist, general } = await setUp();
    const ownerApi = app.as(bot(owner.token));
    const muted = await ownerApi.post(`/guilds/${guild.id}/channels`, {
      name: "announcements-only",
      type: ChannelType.GuildText,
      permission_overwrites: [{ id: guild.id, type: 0, deny: String(P.SendMessages) }],
    });
    const hidden = await ownerApi.post(`/guilds/${guild.id}/channels`, {
      name: "staff",
      type: ChannelType.GuildText,
      permission_overwrites: [{ id: guild.id, type: 0, deny: String(P.ViewChannel) }],
    });
    const api = app.as(bot(typist.token));
    const last = (await app.db.event.aggregate({ _max: { seq: true } }))._max.seq ?? 0;

    const refused = await api.post(`/channels/${(muted.body as { id: string }).id}/typing`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 50013 });
    const unseen = await api.post(`/channels/${(hidden.body as { id: string }).id}/typing`);
    expect(unseen.status).toBe(403);
    expect(unseen.body).toMatchObject({ code: 50001 });
    expect((await api.post(`/channels/999999999999999999/typing`)).body).toMatchObject({ code: 10003 });
    expect(await app.db.event.count({ where: { seq: { gt: last }, type: "TYPING_START" } })).toBe(0);

    // The owner may type anywhere; the guild's own channel still works for the typist.
    expect((await ownerApi.post(`/channels/${(hidden.body as { id: string }).id}/typing`)).status).toBe(204);
    expect((await api.post(`/channels/${general.id}/typing`)).status).toBe(204);
  });
});
