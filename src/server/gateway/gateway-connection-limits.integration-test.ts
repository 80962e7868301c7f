// What a connection without a session may hold: it is closed once the identify deadline
// passes, however it heartbeats, and each client address has a cap of such connections.
import { GatewayCloseCodes, GatewayOpcodes } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { parseTrustedProxies } from "~/server/http/client-address.ts";
import { botInGuilds, identified, useGatewayServer, type GatewayClient, type GatewayServer } from "~/test/gateway-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";

const app = useTestApp();
const router = () => createEventRouter({ db: app.db });
const sessionStart = { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 };
const IDENTIFY_TIMEOUT_MS = 1000;
const deadlined = useGatewayServer(app, { router, limits: { sessionStart, identifyTimeoutMs: IDENTIFY_TIMEOUT_MS } });
// The cap alone (the deadline stays the default): the server trusts its loopback peer as a proxy.
const capped = useGatewayServer(app, { router, limits: { sessionStart, unidentifiedPerAddress: 3 }, trustedProxies: parseTrustedProxies("127.0.0.1") });

/** Connects and reads HELLO. */
async function greeted(server: GatewayServer, headers?: Record<string, string>): Promise<GatewayClient> {
  const client = await server.connect({ headers });
  await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
  return client;
}

/** Whether a new connection is taken (HELLO) rather than closed. */
async function isTaken(server: GatewayServer, headers: Record<string, string>): Promise<boolean> {
  const client = await server.connect({ headers });
  return Promise.race([client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO").then(() => true), client.closed.then(() => false)]);
}

/** Connects until a connection is taken (the server heard an earlier one close), failing after a ceiling. */
async function takenOnceFreed(server: GatewayServer, headers: Record<string, string>): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!(await isTaken(server, headers))) if (performance.now() > deadline) throw new Error("no connection was taken within 10 s");
}

/** Heartbeats every 50 ms until the connection closes, as a client that never identifies would. */
function keepHeartbeating(client: GatewayClient): void {
  const timer = setInterval(() => client.send({ op: GatewayOpcodes.Heartbeat, d: null }), 50);
  void client.closed.then(() => clearInterval(timer));
}

describe("the identify deadline", () => {
  it("closes a connection that only heartbeats with 4003 once the deadline passes, and not before", async () => {
    const client = await deadlined.connect();
    const helloAt = performance.now();
    await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
    keepHeartbeating(client);
    await client.waitFor((frame) => frame.op === GatewayOpcodes.HeartbeatAck, "a heartbeat ACK");
    const closed = await client.closed;
    expect(closed).toEqual({
      code: GatewayCloseCodes.NotAuthenticated,
      reason: `Not authenticated: no IDENTIFY or RESUME within ${IDENTIFY_TIMEOUT_MS / 1000} s`,
    });
    expect(performance.now() - helloAt).toBeGreaterThanOrEqual(IDENTIFY_TIMEOUT_MS - 50);
  });

  it("leaves an identified connection open past it", async () => {
    const { bot } = await botInGuilds(app, 0);
    const { client: session } = await identified(deadlined, bot.token);
    // A connection opened after it, that never identifies, shows the deadline has passed for both.
    const late = await greeted(deadlined);
    expect(await late.closeCode()).toBe(GatewayCloseCodes.NotAuthenticated);
    session.send({ op: GatewayOpcodes.Heartbeat, d: null });
    expect(await session.waitFor((frame) => frame.op === GatewayOpcodes.HeartbeatAck, "a heartbeat ACK")).toBeTruthy();
  });

  it("applies again after op 9 asks for a new IDENTIFY", async () => {
    const { bot } = await botInGuilds(app, 0);
    const client = await greeted(deadlined);
    client.send({ op: GatewayOpcodes.Resume, d: { token: bot.token, session_id: "no-such-session", seq: 0 } });
    expect(await client.waitFor((frame) => frame.op === GatewayOpcodes.InvalidSession, "op 9")).toMatchObject({ d: false });
    keepHeartbeating(client);
    expect(await client.closeCode()).toBe(GatewayCloseCodes.NotAuthenticated);
  });
});

describe("connections without a session, per client address", () => {
  const refusal = { code: GatewayCloseCodes.RateLimited, reason: "Rate limited: 3 connections from this address are waiting to identify" };

  it("closes one past the cap with 4008 at once, and takes one again when a waiting one identifies or goes", async () => {
    const { bot } = await botInGuilds(app, 0);
    // An address of this test's own (through the trusted proxy), so no other test's connections count.
    const headers = { "x-forwarded-for": "192.0.2.1" };
    const waiting = [await greeted(capped, headers), await greeted(capped, headers), await greeted(capped, headers)];
    const refused = await capped.connect({ headers });
    expect(await refused.closed).toEqual(refusal);
    expect(refused.unread()).toEqual([]);

    // A session started: its connection no longer counts (it has one once READY is sent).
    waiting[0]!.identify({ token: bot.token });
    await waiting[0]!.dispatch("READY");
    const fourth = await greeted(capped, headers);
    expect(await (await capped.connect({ headers })).closed).toEqual(refusal);

    // A waiting connection that goes frees its place once the server hears it close.
    waiting[1]!.terminate();
    await takenOnceFreed(capped, headers);
    expect(fourth.ws.readyState).toBe(fourth.ws.OPEN);
  });

  it("counts the client a trusted proxy names, never what the client wrote itself", async () => {
    const proxied = { "x-forwarded-for": "203.0.113.7" };
    for (let i = 0; i < 3; i++) await greeted(capped, proxied);
    expect((await (await capped.connect({ headers: proxied })).closed).code).toBe(GatewayCloseCodes.RateLimited);
    // A made-up address written left of the proxy's is not believed: still 203.0.113.7.
    expect((await (await capped.connect({ headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.7" } })).closed).code).toBe(GatewayCloseCodes.RateLimited);
    // Other clients behind the same proxy, and the proxy's own connections, have their own count.
    const other = await greeted(capped, { "x-forwarded-for": "203.0.113.8" });
    await greeted(capped);
    expect(other.ws.readyState).toBe(other.ws.OPEN);
  });
});
