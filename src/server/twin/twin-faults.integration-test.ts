import { HTTPError, REST } from "@discordjs/rest";
import { GatewayOpcodes, Routes, type APIChannel, type APIMessage, type GatewayReadyDispatchData } from "discord-api-types/v10";
import { Client, Events, GatewayIntentBits } from "discord.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GatewayClient } from "~/test/gateway-kit.ts";
import { until } from "~/test/until.ts";
import type { TwinServer } from "~/server/twin/twin-server.ts";
import { startTestTwin } from "~/test/twin-kit.ts";

// A throwaway twin over real HTTP and a real gateway: faults injected through the twin API
// reach a bot's calls and sessions as the platform's own failures would.

let twin: TwinServer;
let channelId: string;
let otherChannelId: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  // Short heartbeats so a client library's zombie detection acts within seconds; identify
  // buckets per shard, so each raw session below starts at once on a shard of its own.
  process.env.GATEWAY_HEARTBEAT_INTERVAL_MS = "1500";
  process.env.GATEWAY_MAX_CONCURRENCY = "16";
  twin = await startTestTwin();
  const channels = (await (await api("GET", `/guilds/${twin.info.guild_id}/channels`)).json()) as APIChannel[];
  channelId = channels.find((channel) => channel.type === 0)!.id;
  otherChannelId = ((await (await api("POST", `/guilds/${twin.info.guild_id}/channels`, { name: "other" })).json()) as APIChannel).id;
});

afterAll(async () => {
  await twin.stop();
  process.env = savedEnv;
});

afterEach(async () => {
  expect((await control("DELETE", "/faults")).status).toBe(204);
});

/** A twin API call with the admin token. */
async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${twin.info.twin_url}${path}`, {
    method,
    headers: { authorization: `Twin ${twin.info.twin_token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** A REST call as the twin's bot. */
function api(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${twin.info.base_url}/v10${path}`, {
    method,
    headers: { authorization: `Bot ${twin.info.bot_token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function library(retries: number): REST {
  return new REST({ api: twin.info.base_url, version: "10", retries }).setToken(twin.info.bot_token);
}

const SEND = "/channels/:channelId/messages";

describe("REST faults", () => {
  it("answers the platform's 429 until spent: the client library waits and its message is sent", async () => {
    const added = await control("POST", "/faults", {
      match: { method: "POST", route: SEND },
      effect: { type: "rate_limit", retry_after: 0.2 },
      times: 2,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: expect.any(String), remaining: 2, hits: 0, times: 2, probability: 1 });

    const rateLimits: unknown[] = [];
    const rest = library(0).on("rateLimited", (info) => rateLimits.push(info));
    const message = (await rest.post(Routes.channelMessages(channelId), { body: { content: "after two 429s" } })) as APIMessage;

    expect(rateLimits).toHaveLength(2);
    expect((await control("GET", "/faults")).body).toEqual([{ ...added.body, remaining: 0, hits: 2 }]);
    const stored = await api("GET", `/channels/${channelId}/messages/${message.id}`);
    expect(stored.status).toBe(200);
    expect(((await stored.json()) as APIMessage).content).toBe("after two 429s");
  });

  it("answers a global 429 with the global header, scope and body", async () => {
    await control("POST", "/faults", { match: { route: "/users/@me" }, effect: { type: "rate_limit", retry_after: 2.5, global: true }, times: 1 });
    const limited = await api("GET", "/users/@me");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("x-ratelimit-global")).toBe("true");
    expect(limited.headers.get("x-ratelimit-scope")).toBe("global");
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(await limited.json()).toEqual({ message: "You are being rate limited.", retry_after: 2.5, global: true });
    expect((await api("GET", "/users/@me")).status).toBe(200);
  });

  it("answers a 5xx in the platform's envelope; the client library retries it only when told to", async () => {
    await control("POST", "/faults", { match: { method: "POST", route: SEND }, effect: { type: "error", status: 503 }, times: 1 });
    const failed = await api("POST", `/channels/${channelId}/messages`, { content: "no" });
    expect(failed.status).toBe(503);
    expect(await failed.json()).toEqual({ code: 0, message: "503: Service Unavailable" });

    await control("POST", "/faults", { match: { method: "POST", route: SEND }, effect: { type: "error", status: 502 }, times: 1 });
    const thrown = await library(0)
      .post(Routes.channelMessages(channelId), { body: { content: "not retried" } })
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(HTTPError);
    expect((thrown as HTTPError).status).toBe(502);

    const fault = await control("POST", "/faults", { match: { method: "POST", route: SEND }, effect: { type: "error", status: 500 }, times: 1 });
    const message = (await library(1).post(Routes.channelMessages(channelId), { body: { content: "retried once" } })) as APIMessage;
    expect(message.content).toBe("retried once");
    expect((await control("GET", "/faults")).body.find((rule: { id: string }) => rule.id === fault.body.id)).toMatchObject({ hits: 1, remaining: 0 });
  });

  it("delays a call, which then goes on as usual", async () => {
    await control("POST", "/faults", { match: { method: "GET", route: "/users/@me" }, effect: { type: "delay", ms: 400 } });
    const started = performance.now();
    const me = await api("GET", "/users/@me");
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(me.status).toBe(200);
  });

  it("catches only its own route, method, parameters and application", async () => {
    await control("POST", "/faults", { match: { route: SEND, params: { channelId } }, effect: { type: "error", status: 504 } });
    await control("POST", "/faults", { match: { application_id: "1" }, effect: { type: "error", status: 500 } });
    expect((await api("GET", "/users/@me")).status).toBe(200);
    expect((await api("POST", `/channels/${otherChannelId}/messages`, { content: "elsewhere" })).status).toBe(200);
    expect((await api("POST", `/channels/${channelId}/messages`, { content: "here" })).status).toBe(504);
    expect((await api("GET", `/channels/${channelId}/messages`)).status).toBe(504);

    await control("POST", "/faults", { match: { application_id: twin.info.application_id }, effect: { type: "error", status: 500 } });
    expect((await api("GET", "/users/@me")).status).toBe(500);
    // Without credentials there is no application to match.
    expect((await fetch(`${twin.info.base_url}/v10/users/@me`)).status).toBe(401);
  });

  it("are removed one by one or all at once", async () => {
    const first = await control("POST", "/faults", { match: { route: "/users/@me" }, effect: { type: "error", status: 500 } });
    await control("POST", "/faults", { match: { route: SEND }, effect: { type: "error", status: 500 } });
    expect((await control("DELETE", `/faults/${first.body.id}`)).status).toBe(204);
    expect((await control("DELETE", `/faults/${first.body.id}`)).status).toBe(404);
    expect((await api("GET", "/users/@me")).status).toBe(200);
    expect((await control("GET", "/faults")).body).toHaveLength(1);
    expect((await control("DELETE", "/faults")).status).toBe(204);
    expect((await control("GET", "/faults")).body).toEqual([]);
    expect((await api("POST", `/channels/${channelId}/messages`, { content: "cleared" })).status).toBe(200);
  });

  it("refuses bad rules with the platform's 50035, naming the field", async () => {
    const unknownRoute = await control("POST", "/faults", { match: { route: "/channels/:id/messages" }, effect: { type: "error", status: 500 } });
    expect(unknownRoute.status).toBe(400);
    expect(unknownRoute.body).toMatchObject({ code: 50035, errors: { match: { route: { _errors: [{ code: "BASE_TYPE_CHOICES" }] } } } });
    const wrongParam = await control("POST", "/faults", { match: { route: SEND, params: { guildId: "1" } }, effect: { type: "error", status: 500 } });
    expect(wrongParam.body).toMatchObject({ code: 50035, errors: { match: { params: { guildId: expect.any(Object) } } } });
    for (const body of [
      { effect: { type: "error", status: 404 } },
      { effect: { type: "rate_limit", retry_after: -1 } },
      { effect: { type: "delay", ms: 60_001 } },
      { effect: { type: "error", status: 500 }, times: 0 },
      { effect: { type: "error", status: 500 }, probability: 1.5 },
      { match: { method: "TRACE" }, effect: { type: "error", status: 500 } },
      {},
    ]) {
      const refused = await control("POST", "/faults", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe(50035);
    }
    expect((await control("POST", "/gateway/faults", { action: { type: "close", code: 4006 } })).body).toMatchObject({ errors: { action: { code: {} } } });
    expect((await control("POST", "/gateway/faults", { action: { type: "drop_heartbeat_acks", count: 0 } })).status).toBe(400);
  });
});

describe("gateway faults", () => {
  const clients = new Set<GatewayClient>();
  let nextShard = 1;

  afterEach(() => {
    for (const client of clients) client.terminate();
    clients.clear();
  });

  /** A raw connection past HELLO; it heartbeats on its own unless told not to (the gateway closes quiet ones in seconds here). */
  async function connect(options: { heartbeats?: boolean } = {}): Promise<GatewayClient> {
    const client = await GatewayClient.connect(`${twin.info.gateway_url}?v=10&encoding=json`, false);
    clients.add(client);
    await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
    if (options.heartbeats !== false) {
      const heartbeats = setInterval(() => client.send({ op: GatewayOpcodes.Heartbeat, d: null }), 1000);
      void client.closed.then(() => clearInterval(heartbeats));
    }
    return client;
  }

  /** A new session of the twin's bot on a shard of its own, answered with READY. */
  async function session(options?: { heartbeats?: boolean }) {
    const client = await connect(options);
    client.identify({ token: twin.info.bot_token, shard: [nextShard++, 16] });
    const ready = await client.dispatch("READY");
    return { client, sessionId: (ready.d as GatewayReadyDispatchData).session_id, seq: ready.s! };
  }

  async function resume(sessionId: string, seq: number) {
    const client = await connect();
    client.send({ op: GatewayOpcodes.Resume, d: { token: twin.info.bot_token, session_id: sessionId, seq } });
    return client.waitFor(
      (frame) => (frame.op === GatewayOpcodes.Dispatch && frame.t === "RESUMED") || frame.op === GatewayOpcodes.InvalidSession,
      "RESUMED or op 9",
    );
  }

  const isStored = async (sessionId: string) => (await twin.runtime.db.gatewaySession.findUnique({ where: { id: sessionId } })) !== null;

  it("closes with a code: the session stays resumable after 4000, and ends after 4009", async () => {
    const first = await session();
    expect((await control("POST", "/gateway/faults", { match: { session_id: first.sessionId }, action: { type: "close", code: 4000 } })).body).toEqual({
      sessions: 1,
    });
    expect(await first.client.closeCode()).toBe(4000);
    expect(await resume(first.sessionId, first.seq)).toMatchObject({ t: "RESUMED" });

    const second = await session();
    await control("POST", "/gateway/faults", { match: { session_id: second.sessionId }, action: { type: "close", code: 4009, reason: "gone quiet" } });
    expect(await second.client.closed).toEqual({ code: 4009, reason: "gone quiet" });
    await until(async () => !(await isStored(second.sessionId)));
    expect(await resume(second.sessionId, second.seq)).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });
  });

  it("reaches no session when its match names none", async () => {
    await session();
    expect((await control("POST", "/gateway/faults", { match: { session_id: "nobody" }, action: { type: "reconnect" } })).body).toEqual({ sessions: 0 });
  });

  it("tells a session to reconnect with op 7; it resumes", async () => {
    const { client, sessionId, seq } = await session();
    await control("POST", "/gateway/faults", { match: { session_id: sessionId }, action: { type: "reconnect" } });
    expect(await client.waitFor((frame) => frame.op === GatewayOpcodes.Reconnect, "op 7")).toMatchObject({ d: null });
    client.ws.close(4200);
    expect(await resume(sessionId, seq)).toMatchObject({ t: "RESUMED" });
  });

  it("invalidates a session with op 9: not resumable, it ends and the connection takes a new IDENTIFY", async () => {
    const { client, sessionId, seq } = await session();
    await control("POST", "/gateway/faults", { match: { session_id: sessionId }, action: { type: "invalid_session", resumable: false } });
    expect(await client.waitFor((frame) => frame.op === GatewayOpcodes.InvalidSession, "op 9")).toMatchObject({ d: false });
    await until(async () => !(await isStored(sessionId)));
    expect(await resume(sessionId, seq)).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });
    client.identify({ token: twin.info.bot_token, shard: [nextShard++, 16] });
    const ready = await client.dispatch("READY");
    expect((ready.d as GatewayReadyDispatchData).session_id).not.toBe(sessionId);
  });

  it("invalidates a session with op 9 d=true: it resumes", async () => {
    const { client, sessionId, seq } = await session();
    await control("POST", "/gateway/faults", { match: { session_id: sessionId }, action: { type: "invalid_session", resumable: true } });
    expect(await client.waitFor((frame) => frame.op === GatewayOpcodes.InvalidSession, "op 9")).toMatchObject({ d: true });
    client.ws.close(4200);
    expect(await resume(sessionId, seq)).toMatchObject({ t: "RESUMED" });
  });

  it("leaves the next heartbeats unacknowledged, then acknowledges them again", async () => {
    const { client, sessionId, seq } = await session({ heartbeats: false });
    await control("POST", "/gateway/faults", { match: { session_id: sessionId }, action: { type: "drop_heartbeat_acks", count: 2 } });
    for (let i = 0; i < 3; i++) client.send({ op: GatewayOpcodes.Heartbeat, d: seq });
    // A second IDENTIFY closes the connection (4005) once the heartbeats before it are answered.
    client.identify({ token: twin.info.bot_token });
    expect(await client.closeCode()).toBe(4005);
    expect(client.unread().filter((frame) => frame.op === GatewayOpcodes.HeartbeatAck)).toHaveLength(1);
  });

  it("lets a client library's zombie detection resume the session, as after a close with 4000", async () => {
    const bot = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: twin.info.base_url } });
    try {
      const ready = new Promise((resolve) => bot.once(Events.ClientReady, resolve));
      await bot.login(twin.info.bot_token);
      await ready;
      const application = { application_id: twin.info.application_id };

      const zombieResumed = new Promise((resolve) => bot.once(Events.ShardResume, resolve));
      const dropped = await control("POST", "/gateway/faults", { match: application, action: { type: "drop_heartbeat_acks", count: 1 } });
      expect(dropped.body.sessions).toBeGreaterThanOrEqual(1);
      await zombieResumed;

      const closedResumed = new Promise((resolve) => bot.once(Events.ShardResume, resolve));
      await control("POST", "/gateway/faults", { match: application, action: { type: "close", code: 4000 } });
      await closedResumed;
      expect(bot.isReady()).toBe(true);
    } finally {
      await bot.destroy();
    }
  });
});
