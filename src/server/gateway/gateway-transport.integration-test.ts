import { GatewayOpcodes, type APIGatewayBotInfo, type GatewayReadyDispatchData } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { env } from "~/env.ts";
import { botInGuilds, identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { bot as botAuth } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createEventRouter } from "./event-router.ts";
import { gatewayUrl } from "./gateway-limits.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";

const app = useTestApp();
const options = { router: () => createEventRouter({ db: app.db }), limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } } };
const server = useGatewayServer(app, options);

const SYNC_FLUSH_SUFFIX = Buffer.from([0x00, 0x00, 0xff, 0xff]);

describe("compression", () => {
  it("zlib-stream: every message is a binary frame ending in 00 00 ff ff, inflated with one context", async () => {
    const { bot, guildIds } = await botInGuilds(app, 2);
    const { client, ready } = await identified(server, bot.token, {}, { zlibStream: true });
    expect((ready.d as GatewayReadyDispatchData).guilds).toHaveLength(2);
    await client.dispatch("GUILD_CREATE");
    await client.dispatch("GUILD_CREATE");
    client.send({ op: GatewayOpcodes.Heartbeat, d: ready.s });
    await client.waitFor((frame) => frame.op === GatewayOpcodes.HeartbeatAck, "a heartbeat ACK");
    // HELLO, READY, two GUILD_CREATEs, the ACK.
    expect(client.binaryMessages).toHaveLength(5);
    for (const message of client.binaryMessages) expect(message.subarray(-4).equals(SYNC_FLUSH_SUFFIX)).toBe(true);
    expect(guildIds).toHaveLength(2);
  });

  it("the IDENTIFY compress flag: frames from READY on are each a zlib message", async () => {
    const { bot } = await botInGuilds(app, 1);
    const { client } = await identified(server, bot.token, { compress: true });
    await client.dispatch("GUILD_CREATE");
    expect(client.binaryMessages).toHaveLength(2);
  });
});

describe("GET /gateway and /gateway/bot", () => {
  it("GET /gateway answers the WebSocket address without credentials", async () => {
    const res = await app.as().get("/gateway");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: gatewayUrl(env().PUBLIC_BASE_URL) });
    expect(res.body.url).toMatch(/^wss?:\/\/[^/]+\/gateway$/);
  });

  it("GET /gateway/bot answers shards and session_start_limit counted for the bot, and needs a bot token", async () => {
    const { bot } = await botInGuilds(app, 1);
    const before = await app.as(botAuth(bot.token)).get("/gateway/bot");
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      url: gatewayUrl(env().PUBLIC_BASE_URL),
      shards: 1,
      session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
    } satisfies APIGatewayBotInfo);
    await identified(server, bot.token);
    const after = (await app.as(botAuth(bot.token)).get("/gateway/bot")).body as APIGatewayBotInfo;
    expect(after.session_start_limit.remaining).toBe(999);
    expect(after.session_start_limit.reset_after).toBeGreaterThan(0);
    expect(after.session_start_limit.reset_after).toBeLessThanOrEqual(24 * 60 * 60 * 1000);
    expect((await app.as().get("/gateway/bot")).status).toBe(401);
  });
});

describe("graceful close", () => {
  const closing = useGatewayServer(app, options);

  it("sends op 7 RECONNECT to every connection and waits for them to close", async () => {
    const { bot } = await botInGuilds(app, 0);
    const { client } = await identified(closing, bot.token);
    const waiting = await closing.connect();
    const closed = closing.gateway().close();
    expect(await client.waitFor((frame) => frame.op === GatewayOpcodes.Reconnect, "RECONNECT")).toMatchObject({ d: null });
    expect(await waiting.waitFor((frame) => frame.op === GatewayOpcodes.Reconnect, "RECONNECT")).toBeTruthy();
    client.ws.close(4200);
    waiting.ws.close(4200);
    await closed;
    expect(closing.gateway().sessionCount).toBe(0);
  });
});
