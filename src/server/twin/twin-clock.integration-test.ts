import { ChannelType, GatewayIntentBits } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredEvent } from "~/server/events/event-map.ts";
import { addMember, makeBot, makeUser } from "~/test/factories.ts";
import { GatewayClient } from "~/test/gateway-kit.ts";
import { bearer, bot, restClient } from "~/test/rest-client.ts";
import { until } from "~/test/until.ts";
import type { ClockState } from "./twin-clock.ts";
import type { TwinServer } from "~/server/twin/twin-server.ts";
import { startTestTwin } from "~/test/twin-kit.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let twin: TwinServer;
/** Every event the twin committed, heard as the gateway hears them. */
const heard: StoredEvent[] = [];
let stopHearing: () => void;

/** The REST API over real HTTP, as a client library calls it. */
function api(authorization?: string) {
  return restClient(async (request) => {
    const body = request.method === "GET" ? undefined : await request.text();
    return fetch(request.url.replace("http://guildhall.test/api", twin.info.base_url), {
      method: request.method,
      headers: request.headers,
      body: body || undefined,
    });
  }, authorization);
}

/** The twin namespace, with its admin token. */
async function control(method: "GET" | "POST", path: string, body?: unknown) {
  const response = await fetch(`${twin.info.twin_url}${path}`, {
    method,
    headers: { authorization: `Twin ${twin.info.twin_token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function now(): Promise<number> {
  const { body } = await control("GET", "/clock");
  return Date.parse((body as ClockState).now);
}

async function advance(ms: number) {
  const answer = await control("POST", "/clock", { advance_ms: ms });
  expect(answer.status).toBe(200);
  return answer.body as { clock: ClockState; swept: Record<string, number> };
}

const asBot = () => api(bot(twin.info.bot_token));

/** A bot connection that heartbeats, identified for guild and invite events; null when the IDENTIFY was refused (op 9). */
async function connectBot(): Promise<{ client: GatewayClient; sessionId: string } | null> {
  const client = await GatewayClient.connect(`${twin.info.gateway_url}?v=10&encoding=json`, false);
  const hello = await client.waitFor((frame) => frame.op === 10, "HELLO");
  const beat = setInterval(() => client.send({ op: 1, d: null }), (hello.d as { heartbeat_interval: number }).heartbeat_interval / 3);
  void client.closed.then(() => clearInterval(beat));
  client.identify({ token: twin.info.bot_token, intents: GatewayIntentBits.Guilds | GatewayIntentBits.GuildInvites });
  const ready = await client.waitFor((frame) => frame.op === 9 || (frame.op === 0 && frame.t === "READY"), "READY or INVALID_SESSION");
  if (ready.op === 9) {
    client.terminate();
    return null;
  }
  return { client, sessionId: (ready.d as { session_id: string }).session_id };
}

async function textChannelId(): Promise<string> {
  const { body } = await asBot().get<{ id: string; type: number }[]>(`/guilds/${twin.info.guild_id}/channels`);
  return body.find((channel) => channel.type === ChannelType.GuildText)!.id;
}

describe("the twin's clock", () => {
  let gateway: { client: GatewayClient; sessionId: string };

  beforeAll(async () => {
    twin = await startTestTwin();
    stopHearing = twin.runtime.events.subscribe((event) => heard.push(event));
    gateway = (await connectBot())!;
  });
  afterAll(async () => {
    stopHearing();
    gateway.client.terminate();
    await twin.stop();
  });

  it("shows the clock, and refuses bodies that say nothing or too much (50035)", async () => {
    const shown = await control("GET", "/clock");
    expect(shown).toMatchObject({ status: 200, body: { now: expect.any(String), frozen: false, offset_ms: expect.any(Number) } });
    for (const body of [
      {},
      { advance_ms: 0 },
      { advance_ms: -5 },
      { advance_ms: 1.5 },
      { advance_ms: "60000" },
      { advance_ms: 1000, set: "2099-01-01T00:00:00Z" },
      { set: "tomorrow" },
      { frozen: "yes" },
      { advance: 1000 },
    ]) {
      const refused = await control("POST", "/clock", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body, JSON.stringify(body)).toMatchObject({ code: 50035, errors: expect.any(Object) });
    }
  });

  it("never goes back: set before now is a 400 that says so", async () => {
    const before = await now();
    const refused = await control("POST", "/clock", { set: new Date(before - HOUR).toISOString() });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(50035);
    expect(refused.body.errors.set._errors[0].message).toMatch(/only moves forward.*snapshot/);
    expect(await now()).toBeGreaterThanOrEqual(before);
    const later = new Date(before + DAY).toISOString();
    const set = await control("POST", "/clock", { set: later });
    expect(set.status).toBe(200);
    expect(Date.parse(set.body.clock.now)).toBeGreaterThanOrEqual(Date.parse(later));
  });

  it("stays put while frozen, across calls and writes, and moves only when advanced", async () => {
    const frozen = await control("POST", "/clock", { frozen: true });
    expect(frozen.body.clock).toMatchObject({ frozen: true });
    const at = frozen.body.clock.now as string;
    const channelId = await textChannelId();
    const first = await asBot().post(`/channels/${channelId}/messages`, { content: "one" });
    const second = await asBot().post(`/channels/${channelId}/messages`, { content: "two" });
    expect([first.body.timestamp, second.body.timestamp].map(Date.parse)).toEqual([Date.parse(at), Date.parse(at)]);
    expect((await control("GET", "/clock")).body).toMatchObject({ now: at, frozen: true });
    const advanced = await advance(90 * SECOND);
    expect(advanced.clock).toMatchObject({ now: new Date(Date.parse(at) + 90 * SECOND).toISOString(), frozen: true });
    const running = await control("POST", "/clock", { frozen: false });
    expect(running.body.clock.frozen).toBe(false);
    await until(async () => (await now()) > Date.parse(advanced.clock.now));
  });

  it("expires an invite past its max_age: gone on read, INVITE_DELETE sent before the call answers", async () => {
    const created = await asBot().post(`/channels/${await textChannelId()}/invites`, { max_age: 60 });
    expect(created.status).toBe(200);
    const { code } = created.body as { code: string };
    expect((await api().get(`/invites/${code}`)).status).toBe(200);
    const moved = await advance(61 * SECOND);
    expect(moved.swept).toMatchObject({ invites: expect.any(Number), lobbies: expect.any(Number), threads: expect.any(Number) });
    // The sweep ran and its event went out before the answer.
    expect(heard.some((event) => event.type === "INVITE_DELETE" && event.data.code === code)).toBe(true);
    expect((await api().get(`/invites/${code}`)).body).toMatchObject({ code: 10006 });
    const deleted = await gateway.client.waitFor((frame) => frame.t === "INVITE_DELETE" && (frame.d as { code: string }).code === code, "INVITE_DELETE");
    expect(deleted.d).toMatchObject({ code, guild_id: twin.info.guild_id });
  });

  it("ends a member's timeout when the clock passes it", async () => {
    const channelId = await textChannelId();
    const other = await makeBot(twin.runtime.db);
    await addMember(twin.runtime.db, twin.info.guild_id, other.user.id);
    const timeoutEnds = new Date((await now()) + 60 * SECOND).toISOString();
    const timedOut = await asBot().patch(`/guilds/${twin.info.guild_id}/members/${other.user.id}`, { communication_disabled_until: timeoutEnds });
    expect(timedOut.status).toBe(200);
    const asOther = api(bot(other.token));
    expect((await asOther.post(`/channels/${channelId}/messages`, { content: "let me speak" })).body).toMatchObject({ code: 50013 });
    await advance(61 * SECOND);
    expect((await asOther.post(`/channels/${channelId}/messages`, { content: "let me speak" })).status).toBe(200);
  });

  it("shuts a lobby down once idle past its timeout, counting reads as activity at the clock's time", async () => {
    const created = await asBot().post("/lobbies", { idle_timeout_seconds: 3600 });
    expect(created.status).toBe(200);
    const lobbyId = (created.body as { id: string }).id;
    const deadline = async () => (await twin.runtime.db.lobby.findUnique({ where: { id: lobbyId } }))?.expiresAt.getTime();
    expect((await asBot().get(`/lobbies/${lobbyId}`)).status).toBe(200);
    const first = await deadline();
    await advance(HOUR - MINUTE);
    // Read again just before its deadline (a moment after the first read): activity that moves its idle clock.
    expect((await asBot().get(`/lobbies/${lobbyId}`)).status).toBe(200);
    await until(async () => (await deadline())! > first! + HOUR - 2 * MINUTE);
    await advance(2 * MINUTE);
    expect((await asBot().get(`/lobbies/${lobbyId}`)).status).toBe(200);
    await advance(HOUR + SECOND);
    expect(heard.some((event) => event.type === "LOBBY_DELETE" && event.data.id === lobbyId)).toBe(true);
    expect((await asBot().get(`/lobbies/${lobbyId}`)).body).toMatchObject({ code: 10031 });
  });

  it("lifts an incident action's invite pause when its time passes", async () => {
    const invite = await asBot().post(`/channels/${await textChannelId()}/invites`, { max_age: 0 });
    const paused = await asBot().put(`/guilds/${twin.info.guild_id}/incident-actions`, {
      invites_disabled_until: new Date((await now()) + HOUR).toISOString(),
    });
    expect(paused.status).toBe(200);
    const newcomer = await makeUser(twin.runtime.db);
    const asNewcomer = api(bearer(newcomer.token));
    expect((await asNewcomer.post(`/invites/${invite.body.code}`)).status).toBe(403);
    await advance(HOUR + SECOND);
    expect((await asNewcomer.post(`/invites/${invite.body.code}`)).status).toBe(200);
  });

  it("archives a quiet thread with THREAD_UPDATE once its auto_archive_duration passes", async () => {
    const created = await asBot().post(`/channels/${await textChannelId()}/threads`, {
      name: "quiet",
      type: ChannelType.PublicThread,
      auto_archive_duration: 60,
    });
    expect(created.status).toBe(201);
    const threadId = (created.body as { id: string }).id;
    await advance(HOUR + SECOND);
    expect(heard.some((event) => event.type === "THREAD_UPDATE" && event.data.id === threadId)).toBe(true);
    const update = await gateway.client.waitFor((frame) => frame.t === "THREAD_UPDATE" && (frame.d as { id: string }).id === threadId, "THREAD_UPDATE");
    expect(update.d).toMatchObject({ id: threadId, thread_metadata: { archived: true } });
  });

  it("lets a rate-limited caller through once the clock passes retry_after", async () => {
    // Crossposts: 10 per hour per caller and channel, counted before the route looks at the
    // channel (a text channel: 50024 after the limiter let the call through).
    const crosspost = async () => asBot().post(`/channels/${await textChannelId()}/messages/1/crosspost`);
    for (let i = 0; i < 10; i++) expect((await crosspost()).body).toMatchObject({ code: 50024 });
    const limited = await crosspost();
    expect(limited.status).toBe(429);
    const retryAfter = (limited.body as { retry_after: number }).retry_after;
    expect(retryAfter).toBeGreaterThan(60);
    expect((await crosspost()).status).toBe(429);
    await advance(Math.ceil(retryAfter * SECOND));
    expect((await crosspost()).body).toMatchObject({ code: 50024 });
  });

  it("ends a session's resume window after 5 minutes, while connected sessions outlive any advance", async () => {
    const { client, sessionId } = gateway;
    const seq = () => Math.max(0, ...client.unread().map((frame) => frame.s ?? 0));
    const closed = async () => (await twin.runtime.db.gatewaySession.findUnique({ where: { id: sessionId } }))?.closedAt != null;
    // A day later the connected session is still there and still hears events.
    await advance(DAY);
    expect(await twin.runtime.db.gatewaySession.findUnique({ where: { id: sessionId } })).not.toBeNull();
    await asBot().post(`/channels/${await textChannelId()}/invites`, { max_age: 0, unique: true });
    await client.dispatch("INVITE_CREATE");
    const lastSeq = seq();
    client.terminate();
    await until(closed);

    // Within the window: resumed.
    await advance(4 * MINUTE);
    const resumed = await GatewayClient.connect(`${twin.info.gateway_url}?v=10&encoding=json`, false);
    await resumed.waitFor((frame) => frame.op === 10, "HELLO");
    resumed.send({ op: 6, d: { token: twin.info.bot_token, session_id: sessionId, seq: lastSeq } });
    await resumed.dispatch("RESUMED");
    resumed.terminate();
    await until(closed);

    // Past it: op 9, not resumable.
    await advance(5 * MINUTE + SECOND);
    const late = await GatewayClient.connect(`${twin.info.gateway_url}?v=10&encoding=json`, false);
    await late.waitFor((frame) => frame.op === 10, "HELLO");
    late.send({ op: 6, d: { token: twin.info.bot_token, session_id: sessionId, seq: lastSeq } });
    expect((await late.waitFor((frame) => frame.op === 9, "INVALID_SESSION")).d).toBe(false);
    late.terminate();
    gateway = (await connectBot())!;
  });

  it("lets a bot identify again under a frozen clock: identifies are paced as if the clock ran", async () => {
    await control("POST", "/clock", { frozen: true });
    gateway.client.terminate();
    // One IDENTIFY per 5 s: refused with op 9 until 5 seconds passed since the last, frozen or not.
    const deadline = performance.now() + 30_000;
    let connected: Awaited<ReturnType<typeof connectBot>> | null = null;
    while (!connected && performance.now() < deadline) {
      connected = await connectBot();
      if (!connected) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(connected).not.toBeNull();
    gateway = connected!;
    await control("POST", "/clock", { frozen: false });
  });

  it("expires an OAuth2 access token after 7 days, cached or not", async () => {
    const basic = `Basic ${Buffer.from(`${twin.info.application_id}:${twin.info.client_secret}`).toString("base64")}`;
    const response = await fetch(`${twin.info.base_url}/v10/oauth2/token`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", scope: "identify" }),
    });
    const grant = (await response.json()) as { access_token: string; expires_in: number };
    expect(grant.expires_in).toBe(604_800);
    const asHolder = api(bearer(grant.access_token));
    // Read once so the token is in the process's cache.
    expect((await asHolder.get("/users/@me")).status).toBe(200);
    await advance(7 * DAY - SECOND);
    expect((await asHolder.get("/users/@me")).status).toBe(200);
    await advance(2 * SECOND);
    expect((await asHolder.get("/users/@me")).status).toBe(401);
    // A token without an expiry (the twin's user_bearer) still works.
    expect((await api(bearer(twin.info.user_bearer)).get("/users/@me")).status).toBe(200);
  });
});
