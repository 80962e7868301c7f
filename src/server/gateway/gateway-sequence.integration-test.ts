import { GatewayIntentBits, GatewayOpcodes, type GatewayReadyDispatchData } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { botInGuilds, identified, useGatewayServer, type Frame, type GatewayClient, type GatewayServer } from "~/test/gateway-kit.ts";
import { bot as botAuth } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";

// A dispatch's `s` counts the session's dispatches, as on the platform: READY is 1, and each
// dispatch after it, whatever sent it, is one more. RESUME maps it back to the outbox.

const app = useTestApp();
const options = { router: () => createEventRouter({ db: app.db }), limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } } };
const first = useGatewayServer(app, options);
const second = useGatewayServer(app, options);
const intents = GatewayIntentBits.Guilds;

const dispatches = (frames: readonly Frame[]) => frames.filter((frame) => frame.op === GatewayOpcodes.Dispatch);
const named = (frame: Frame) => (frame.d as { name?: string } | null)?.name;

async function resumed(server: GatewayServer, fields: { token: string; session_id: string; seq: number }): Promise<GatewayClient> {
  const client = await server.connect();
  await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
  client.send({ op: GatewayOpcodes.Resume, d: fields });
  return client;
}

describe("dispatch sequences", () => {
  it("count every dispatch of a connection by one: READY, GUILD_CREATEs, live events and a member chunk", async () => {
    const { bot, owner, guildIds } = await botInGuilds(app, 2);
    const { client, ready } = await identified(first, bot.token, { intents });
    const rest = app.as(botAuth(owner.token));
    const created = [await client.dispatch("GUILD_CREATE"), await client.dispatch("GUILD_CREATE")];
    expect((await rest.patch(`/guilds/${guildIds[0]}`, { name: "One" })).status).toBe(200);
    const update = await client.dispatch("GUILD_UPDATE");
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildIds[1], user_ids: [bot.user.id], nonce: "me" } });
    const chunk = await client.dispatch("GUILD_MEMBERS_CHUNK");
    expect((await rest.patch(`/guilds/${guildIds[1]}`, { name: "Two" })).status).toBe(200);
    const after = await client.dispatch("GUILD_UPDATE");
    expect([ready, ...created, update, chunk, after].map((frame) => frame.s)).toEqual([1, 2, 3, 4, 5, 6]);
    // The heartbeat ACK carries no sequence, and answers as before.
    client.send({ op: GatewayOpcodes.Heartbeat, d: after.s });
    expect(await client.waitFor((frame) => frame.op === GatewayOpcodes.HeartbeatAck, "ACK")).toMatchObject({ op: GatewayOpcodes.HeartbeatAck });
  });

  it("go on after the client's s on another instance: the replay, RESUMED, then live events", async () => {
    const { bot, owner, guildIds } = await botInGuilds(app, 1);
    const guildId = guildIds[0]!;
    const rest = app.as(botAuth(owner.token));
    const { client, ready } = await identified(first, bot.token, { intents });
    await client.dispatch("GUILD_CREATE");
    expect((await rest.patch(`/guilds/${guildId}`, { name: "Seen" })).status).toBe(200);
    const seen = await client.dispatch("GUILD_UPDATE");
    expect(seen.s).toBe(3);
    client.terminate();
    await client.closed;
    expect((await rest.patch(`/guilds/${guildId}`, { name: "Missed 1" })).status).toBe(200);
    expect((await rest.patch(`/guilds/${guildId}`, { name: "Missed 2" })).status).toBe(200);

    const back = await resumed(second, { token: bot.token, session_id: (ready.d as GatewayReadyDispatchData).session_id, seq: 3 });
    const frames = dispatches(await back.framesThrough((frame) => frame.t === "RESUMED", "RESUMED"));
    expect(frames.map((frame) => [frame.t, frame.s, named(frame)])).toEqual([
      ["GUILD_UPDATE", 4, "Missed 1"],
      ["GUILD_UPDATE", 5, "Missed 2"],
      ["RESUMED", 6, undefined],
    ]);
    expect((await rest.patch(`/guilds/${guildId}`, { name: "Live" })).status).toBe(200);
    expect(await back.dispatch("GUILD_UPDATE")).toMatchObject({ s: 7, d: { name: "Live" } });
  });

  it("sends again what followed the client's s when frames sent were not received, numbered as before", async () => {
    const { bot, owner, guildIds } = await botInGuilds(app, 1);
    const guildId = guildIds[0]!;
    const rest = app.as(botAuth(owner.token));
    const { client, ready } = await identified(first, bot.token, { intents });
    await client.dispatch("GUILD_CREATE");
    for (const name of ["Three", "Four", "Five"]) expect((await rest.patch(`/guilds/${guildId}`, { name })).status).toBe(200);
    await client.waitFor((frame) => named(frame) === "Five", "the last change");
    client.terminate();
    await client.closed;

    // The client says it had 3 only: 4 and 5 were lost on the way.
    const back = await resumed(second, { token: bot.token, session_id: (ready.d as GatewayReadyDispatchData).session_id, seq: 3 });
    const frames = dispatches(await back.framesThrough((frame) => frame.t === "RESUMED", "RESUMED"));
    expect(frames.map((frame) => [frame.t, frame.s, named(frame)])).toEqual([
      ["GUILD_UPDATE", 4, "Four"],
      ["GUILD_UPDATE", 5, "Five"],
      ["RESUMED", 6, undefined],
    ]);
  });

  it("resumed from READY alone, the session's GUILD_CREATEs are sent again", async () => {
    const { bot, guildIds } = await botInGuilds(app, 2);
    const { client, ready } = await identified(first, bot.token, { intents });
    await client.dispatch("GUILD_CREATE");
    await client.dispatch("GUILD_CREATE");
    client.terminate();
    await client.closed;

    const back = await resumed(second, { token: bot.token, session_id: (ready.d as GatewayReadyDispatchData).session_id, seq: 1 });
    const frames = dispatches(await back.framesThrough((frame) => frame.t === "RESUMED", "RESUMED"));
    expect(frames.map((frame) => [frame.t, frame.s])).toEqual([
      ["GUILD_CREATE", 2],
      ["GUILD_CREATE", 3],
      ["RESUMED", 4],
    ]);
    expect(frames.slice(0, 2).map((frame) => (frame.d as { id: string }).id)).toEqual(guildIds);
  });

  it("resumes on the same instance while the old connection still looks open", async () => {
    const { bot, owner, guildIds } = await botInGuilds(app, 1);
    const rest = app.as(botAuth(owner.token));
    const { client, ready } = await identified(first, bot.token, { intents });
    const created = await client.dispatch("GUILD_CREATE");
    // The old connection is not closed: the client gave up on it (a zombie) and resumes at once.
    const back = await resumed(first, { token: bot.token, session_id: (ready.d as GatewayReadyDispatchData).session_id, seq: created.s! });
    expect(await back.dispatch("RESUMED")).toMatchObject({ s: 3 });
    expect(await client.closed).toBeTruthy();
    expect((await rest.patch(`/guilds/${guildIds[0]}`, { name: "Here" })).status).toBe(200);
    expect(await back.dispatch("GUILD_UPDATE")).toMatchObject({ s: 4, d: { name: "Here" } });
  });
});
