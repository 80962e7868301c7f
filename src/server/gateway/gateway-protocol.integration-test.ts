import { GatewayCloseCodes, GatewayIntentBits, GatewayOpcodes, type GatewayReadyDispatchData } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { resetBotToken } from "~/server/auth/tokens.service.ts";
import { makeUser } from "~/test/factories.ts";
import { botInGuilds, identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { bot as botAuth } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";

const app = useTestApp();
const router = () => createEventRouter({ db: app.db });
// Most tests identify the same way many times: no identify concurrency wait.
const sessionStart = { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 };
const server = useGatewayServer(app, { router, limits: { sessionStart, commands: { count: 10, windowMs: 60_000 }, maxGuildsPerShard: 3 } });

describe("HELLO and heartbeats", () => {
  it("says HELLO with the heartbeat interval, and answers each heartbeat with an ACK", async () => {
    const client = await server.connect();
    const hello = await client.next();
    expect(hello).toMatchObject({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: 41_250 } });
    client.send({ op: GatewayOpcodes.Heartbeat, d: null });
    expect(await client.next()).toMatchObject({ op: GatewayOpcodes.HeartbeatAck });
    client.send({ op: GatewayOpcodes.Heartbeat, d: 5 });
    expect(await client.next()).toMatchObject({ op: GatewayOpcodes.HeartbeatAck });
  });
});

describe("IDENTIFY and READY", () => {
  it("sends READY with the bot, its guilds unavailable, a session and where to resume, then a GUILD_CREATE per guild", async () => {
    const { bot, guildIds } = await botInGuilds(app, 2);
    const { client, ready } = await identified(server, bot.token);
    const data = ready.d as GatewayReadyDispatchData;
    expect(ready.s).toBe(1);
    expect(data).toMatchObject({
      v: 10,
      user: { id: bot.user.id, bot: true },
      session_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      resume_gateway_url: server.url("").replace(/\?$/, ""),
      shard: [0, 1],
      application: { id: bot.application.id, flags: expect.any(Number) },
    });
    expect(data.guilds.map((guild) => guild.id).sort()).toEqual([...guildIds].sort());
    expect(data.guilds.every((guild) => guild.unavailable)).toBe(true);
    const created = [await client.dispatch("GUILD_CREATE"), await client.dispatch("GUILD_CREATE")];
    expect(created.map((frame) => (frame.d as { id: string }).id).sort()).toEqual([...guildIds].sort());
    expect(created.map((frame) => frame.s)).toEqual([2, 3]);
  });

  it("delivers a change made over REST after READY with the session's next sequence", async () => {
    const { bot, owner, guildIds } = await botInGuilds(app, 1);
    const { client } = await identified(server, bot.token, { intents: GatewayIntentBits.Guilds });
    await client.dispatch("GUILD_CREATE");
    const renamed = await app.as(botAuth(owner.token)).patch(`/guilds/${guildIds[0]}`, { name: "Renamed" });
    expect(renamed.status).toBe(200);
    const update = await client.dispatch("GUILD_UPDATE");
    expect(update.d).toMatchObject({ id: guildIds[0], name: "Renamed" });
    expect(update.s).toBe(3);
  });

  it("takes a presence update after IDENTIFY, and closes with 4002 on a malformed one", async () => {
    const { bot } = await botInGuilds(app, 0);
    const { client } = await identified(server, bot.token);
    client.send({ op: GatewayOpcodes.PresenceUpdate, d: { since: null, activities: [{ name: "tests", type: 0 }], status: "idle", afk: false } });
    client.send({ op: GatewayOpcodes.Heartbeat, d: null });
    expect(await client.waitFor((frame) => frame.op === GatewayOpcodes.HeartbeatAck, "a heartbeat ACK")).toBeTruthy();
    client.send({ op: GatewayOpcodes.PresenceUpdate, d: { status: "sleeping" } });
    expect(await client.closeCode()).toBe(GatewayCloseCodes.DecodeError);
  });

  it("takes a token with the Bot prefix too", async () => {
    const { bot } = await botInGuilds(app, 0);
    const { ready } = await identified(server, `Bot ${bot.token}`);
    expect((ready.d as GatewayReadyDispatchData).guilds).toEqual([]);
  });
});

describe("close codes", () => {
  async function closeCodeAfter(send: (client: Awaited<ReturnType<typeof server.connect>>) => void | Promise<void>, query?: string) {
    const client = await server.connect({ query });
    await send(client);
    return client.closeCode();
  }

  it("4001 for an unknown opcode", async () => {
    expect(await closeCodeAfter((client) => client.send({ op: 99, d: null }))).toBe(GatewayCloseCodes.UnknownOpcode);
  });

  it("4002 for malformed JSON, a payload of the wrong shape, a bad identify and an oversize frame", async () => {
    expect(await closeCodeAfter((client) => client.send("{not json"))).toBe(GatewayCloseCodes.DecodeError);
    expect(await closeCodeAfter((client) => client.send({ d: null }))).toBe(GatewayCloseCodes.DecodeError);
    expect(await closeCodeAfter((client) => client.send({ op: 2, d: { token: "x" } }))).toBe(GatewayCloseCodes.DecodeError);
    expect(await closeCodeAfter((client) => client.identify({ token: "x", large_threshold: 251 }))).toBe(GatewayCloseCodes.DecodeError);
    expect(await closeCodeAfter((client) => client.send({ op: 1, d: null, padding: "x".repeat(5000) }))).toBe(GatewayCloseCodes.DecodeError);
  });

  it("4002 for the etf encoding, 4012 for an API version other than 10", async () => {
    expect(await closeCodeAfter(() => undefined, "v=10&encoding=etf")).toBe(GatewayCloseCodes.DecodeError);
    expect(await closeCodeAfter(() => undefined, "v=9&encoding=json")).toBe(GatewayCloseCodes.InvalidAPIVersion);
  });

  it("4003 for a command before IDENTIFY", async () => {
    const presence = { since: null, activities: [], status: "online", afk: false };
    expect(await closeCodeAfter((client) => client.send({ op: GatewayOpcodes.PresenceUpdate, d: presence }))).toBe(GatewayCloseCodes.NotAuthenticated);
  });

  it("4004 for a token that is not a live bot token", async () => {
    expect(await closeCodeAfter((client) => client.identify({ token: "MTIz.nope" }))).toBe(GatewayCloseCodes.AuthenticationFailed);
    const person = await makeUser(app.db);
    expect(await closeCodeAfter((client) => client.identify({ token: person.token }))).toBe(GatewayCloseCodes.AuthenticationFailed);
  });

  it("4004 when the bot's token is reset while connected", async () => {
    const { bot } = await botInGuilds(app, 0);
    const { client } = await identified(server, bot.token);
    await resetBotToken({ db: app.db, actor: null }, { id: bot.application.id, botUserId: bot.user.id });
    expect(await client.closeCode()).toBe(GatewayCloseCodes.AuthenticationFailed);
  });

  it("4005 for IDENTIFY twice", async () => {
    const { bot } = await botInGuilds(app, 0);
    const { client } = await identified(server, bot.token);
    client.identify({ token: bot.token });
    expect(await client.closeCode()).toBe(GatewayCloseCodes.AlreadyAuthenticated);
  });

  it("4008 for more commands than the window allows", async () => {
    const client = await server.connect();
    for (let i = 0; i < 11; i++) client.send({ op: GatewayOpcodes.Heartbeat, d: null });
    expect(await client.closeCode()).toBe(GatewayCloseCodes.RateLimited);
  });

  it("4010 for an invalid shard, 4011 when one shard would hold too many guilds", async () => {
    const { bot } = await botInGuilds(app, 4);
    expect(await closeCodeAfter((client) => client.identify({ token: bot.token, shard: [2, 2] }))).toBe(GatewayCloseCodes.InvalidShard);
    expect(await closeCodeAfter((client) => client.identify({ token: bot.token, shard: [0, 0] }))).toBe(GatewayCloseCodes.InvalidShard);
    expect(await closeCodeAfter((client) => client.identify({ token: bot.token }))).toBe(GatewayCloseCodes.ShardingRequired);
  });

  it("4013 for intent bits the platform does not define, 4014 for privileged intents the app does not hold", async () => {
    const { bot } = await botInGuilds(app, 0);
    expect(await closeCodeAfter((client) => client.identify({ token: bot.token, intents: 1 << 30 }))).toBe(GatewayCloseCodes.InvalidIntents);
    const members = GatewayIntentBits.GuildMembers;
    expect(await closeCodeAfter((client) => client.identify({ token: bot.token, intents: members }))).toBe(GatewayCloseCodes.DisallowedIntents);
    await setApprovedIntents({ db: app.db, actor: null }, bot.application.id, ["GUILD_MEMBERS"], true);
    const { ready } = await identified(server, bot.token, { intents: members });
    expect(ready.t).toBe("READY");
  });
});

describe("session start limit", () => {
  const limited = useGatewayServer(app, { router, limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, total: 2 } } });

  it("refuses an IDENTIFY sooner than max_concurrency allows with op 9, and the spent budget with op 9", async () => {
    const { bot } = await botInGuilds(app, 0);
    await identified(limited, bot.token);
    const tooSoon = await limited.connect();
    tooSoon.identify({ token: bot.token });
    expect(await tooSoon.waitFor((frame) => frame.op === GatewayOpcodes.InvalidSession)).toMatchObject({ d: false });
  });

  it("answers op 9 once the daily budget is spent", async () => {
    const { bot } = await botInGuilds(app, 0);
    // Each IDENTIFY waits out max_concurrency's 5 seconds: the slot is moved back instead.
    const slotFree = () => app.db.gatewayIdentifySlot.updateMany({ where: { applicationId: bot.application.id }, data: { lastAt: new Date(0) } });
    await identified(limited, bot.token);
    await slotFree();
    await identified(limited, bot.token);
    await slotFree();
    const spent = await limited.connect();
    spent.identify({ token: bot.token });
    expect(await spent.waitFor((frame) => frame.op === GatewayOpcodes.InvalidSession)).toMatchObject({ d: false });
  });
});

describe("zombie connections", () => {
  const quick = useGatewayServer(app, { router, limits: { heartbeatIntervalMs: 200, heartbeatGraceMs: 200 } });

  it("closes a connection that stops heartbeating with 4009, and keeps one that heartbeats", async () => {
    const silent = await quick.connect();
    const beating = await quick.connect();
    expect(await beating.next()).toMatchObject({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: 200 } });
    const timer = setInterval(() => beating.send({ op: GatewayOpcodes.Heartbeat, d: null }), 100);
    try {
      expect(await silent.closeCode()).toBe(GatewayCloseCodes.SessionTimedOut);
      // The beating connection outlives the silent one's deadline by several intervals more.
      for (let i = 0; i < 6; i++) await beating.waitFor((frame) => frame.op === GatewayOpcodes.HeartbeatAck, "a heartbeat ACK");
      expect(beating.ws.readyState).toBe(beating.ws.OPEN);
    } finally {
      clearInterval(timer);
    }
  });
});
