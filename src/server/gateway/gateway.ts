import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { GatewayCloseCodes } from "discord-api-types/v10";
import { WebSocketServer, type WebSocket } from "ws";
import type { Db } from "~/server/db/client.ts";
import { clientAddress, type TrustedProxies } from "~/server/http/client-address.ts";
import { InternalEvents, type StoredEvent } from "~/server/events/event-map.ts";
import { disconnectEndedSessions } from "~/server/members/voice.service.ts";
import type { CloseCode } from "./close-codes.ts";
import type { ConnectionHost, FrameLog } from "./connection-host.ts";
import { Connection } from "./connection.ts";
import { createFrameSender } from "./frame-sender.ts";
import { faultReaches, type GatewayFaultAction, type GatewayFaultMatch } from "./gateway-faults.ts";
import { gatewayLimitsFromEnv, gatewayUrl, type GatewayLimits } from "./gateway-limits.ts";
import type { EventRouter, GatewaySessionView } from "./gateway-types.ts";
import { disallowedIntent } from "./handshake.ts";
import { sweepSessions, touchSessions } from "./session-store.ts";

export type Gateway = {
  /** Takes an HTTP upgrade for /gateway (server.ts hands over only that path). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Graceful shutdown: op 7 RECONNECT to every connection, then they close (resumable on another instance). */
  close(): Promise<void>;
  /**
   * Op 7 RECONNECT to every connection, which then close as on shutdown, while the gateway
   * stays open for them to come back (a test twin's restore: their sessions are gone, so a
   * RESUME hears op 9 and the client identifies anew). Answers how many connections were told.
   */
  reconnectAll(): number;
  /** Sessions receiving events on this instance. */
  readonly sessionCount: number;
  /** A test twin's fault, at once: `action` on this instance's live sessions that `match` reaches; answers how many. */
  injectFault(match: GatewayFaultMatch, action: GatewayFaultAction): number;
  /**
   * The housekeeping its timer runs, once now (a test twin's clock moved): connected sessions
   * seen, expired ones deleted, ended sessions' voice disconnected; resolves once the events
   * heard by then have gone to their sessions. Counts the sessions and voice states it ended.
   */
  housekeep(): Promise<{ sessions: number; voiceStates: number }>;
};

export type GatewayOptions = {
  db: Db;
  /** Every committed event, from any instance (the event bus, fed by Redis when configured). */
  subscribe: (listener: (event: StoredEvent) => void) => () => void;
  router: EventRouter;
  publicBaseUrl: string;
  limits?: Partial<GatewayLimits>;
  /** Proxies whose X-Forwarded-For names the client (TRUSTED_PROXIES), as REST resolves it; absent: the peer. */
  trustedProxies?: TrustedProxies;
  log?: (error: unknown) => void;
  /** Test mode's recorder of each connection's frames; absent, nothing is recorded. */
  frameLog?: () => FrameLog;
};

// ws rejects frames past this itself (close 1009); frames between the platform's 4096-byte
// limit and this get the platform's 4002, and no frame this large is held in memory.
const WS_MAX_FRAME_BYTES = 64 * 1024;
// How long a graceful close waits for clients to close after op 7 before dropping them.
const RECONNECT_WAIT_MS = 5000;

/** The live sessions, and each one's connection. */
type LiveTargets = { views: GatewaySessionView[]; connections: ReadonlyMap<GatewaySessionView, Connection> };

function targetsOf(live: Iterable<Connection>): LiveTargets {
  const connections = new Map([...live].map((connection) => [connection.view!, connection]));
  return { views: [...connections.keys()], connections };
}

/** The query's v, encoding and compress, or the close code refusing them. */
function transportOf(query: URLSearchParams): { zlibStream: boolean } | { refuse: CloseCode; reason: string } {
  const version = query.get("v");
  if (version !== null && version !== "10") return { refuse: GatewayCloseCodes.InvalidAPIVersion, reason: `API version ${version} is not served; use v=10` };
  const encoding = query.get("encoding") ?? "json";
  if (encoding !== "json") return { refuse: GatewayCloseCodes.DecodeError, reason: `encoding=${encoding} is not served; use encoding=json` };
  const compress = query.get("compress");
  if (compress !== null && compress !== "zlib-stream")
    return { refuse: GatewayCloseCodes.DecodeError, reason: `compress=${compress} is not served; use zlib-stream` };
  return { zlibStream: compress === "zlib-stream" };
}

export function createGateway(options: GatewayOptions): Gateway {
  const { db, router } = options;
  const limits: GatewayLimits = { ...gatewayLimitsFromEnv(), ...options.limits };
  const log = options.log ?? ((error: unknown) => console.error("[gateway]", error));
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_FRAME_BYTES, perMessageDeflate: false });
  const connections = new Set<Connection>();
  const sockets = new Set<WebSocket>();
  // Each client address's open connections: those without a session count against its cap.
  const byAddress = new Map<string, Set<Connection>>();
  const starting = new Set<Connection>();
  const live = new Map<string, Connection>();
  // The live sessions an event heard now goes to, and the connection of each (kept with the
  // event: a connection that closes meanwhile still numbers what was meant for it).
  let liveTargets: LiveTargets | null = null;
  // The seq of the last event heard while sessions were live.
  let heard = 0;
  let closing: Promise<void> | null = null;

  const host: ConnectionHost<Connection> = {
    db,
    router,
    log,
    now: () => new Date(),
    resumeGatewayUrl: gatewayUrl(options.publicBaseUrl),
    sessionStart: limits.sessionStart,
    maxGuildsPerShard: limits.maxGuildsPerShard,
    resumableMs: limits.resumableMs,
    maxReplayEvents: limits.maxReplayEvents,
    resumeHandoverMs: limits.resumeHandoverMs,
    commandLimit: limits.commands,
    frameLog: options.frameLog,
    startBuffering(connection) {
      starting.add(connection);
    },
    goLive(connection) {
      starting.delete(connection);
      const sessionId = connection.view!.sessionId;
      // A client that resumes here while its old connection still looks open: the old one is a zombie.
      const previous = live.get(sessionId);
      live.set(sessionId, connection);
      liveTargets = null;
      if (previous && previous !== connection) previous.terminate();
    },
    remove(connection) {
      connections.delete(connection);
      starting.delete(connection);
      const sessionId = connection.view?.sessionId;
      if (sessionId === undefined) return false;
      if (live.get(sessionId) === connection) {
        live.delete(sessionId);
        liveTargets = null;
        return true;
      }
      return !live.has(sessionId);
    },
    settled() {
      const last = heard;
      return chain.then(() => last);
    },
    holderOf(sessionId) {
      const holder = live.get(sessionId) ?? [...starting].find((connection) => connection.view?.sessionId === sessionId);
      return holder && !holder.isHandedOver ? holder : null;
    },
  };

  // Routing is asynchronous; one chain keeps every session's events in commit order. Each
  // event goes to the sessions live when it was heard; sessions still starting buffer it.
  let chain = Promise.resolve();
  const unsubscribe = options.subscribe((event) => {
    if (event.type === InternalEvents.TokensRevoked) disconnectRevoked(new Set(event.data.token_ids));
    if (event.type === InternalEvents.ApplicationUpdated) void closeDisallowed(event.data.application_id).catch(log);
    for (const connection of starting) connection.buffer.push(event);
    if (live.size === 0) return;
    const targets = (liveTargets ??= targetsOf(live.values()));
    heard = event.seq;
    chain = chain.then(() => dispatch(event, targets)).catch(log);
  });

  /** A revoked (or reset) bot token ends the connections it opened, as a wrong token would have. */
  function disconnectRevoked(tokenIds: ReadonlySet<string>): void {
    for (const connection of connections) {
      if (connection.tokenId !== null && tokenIds.has(connection.tokenId)) connection.close(GatewayCloseCodes.AuthenticationFailed, "token revoked");
    }
  }

  /**
   * The application's settings changed: its sessions that asked for a privileged intent it no
   * longer holds are closed with 4014, as IDENTIFY would refuse them (every instance hears this).
   */
  async function closeDisallowed(applicationId: string): Promise<void> {
    const verdicts = new Map<number, Promise<string | null>>();
    for (const connection of connections) {
      const view = connection.view;
      if (view?.applicationId !== applicationId || view.player) continue;
      if (!verdicts.has(view.intents)) verdicts.set(view.intents, disallowedIntent(db, applicationId, view.intents));
      const disallowed = await verdicts.get(view.intents)!;
      // The connection may have resumed another session or ended while the check ran.
      if (disallowed && connection.view === view) connection.close(GatewayCloseCodes.DisallowedIntents, disallowed);
    }
  }

  async function dispatch(event: StoredEvent, targets: LiveTargets): Promise<void> {
    for (const { sessions, t, d } of await router.route(event, targets.views)) {
      // Serialised once for every session it goes to; each connection numbers and compresses it on its own.
      const payload = JSON.stringify(d);
      for (const session of sessions) targets.connections.get(session)?.sendEventDispatch(t, payload, event);
    }
  }

  // Zombies: connections whose heartbeats stopped, and connections that never identify (a
  // heartbeat alone would keep them for ever). One timer for all connections. Liveness is real
  // time (performance.now), not the world's: a test twin's clock moving on kills no one.
  const zombieTimer = setInterval(
    () => {
      const now = performance.now();
      const deadline = now - limits.heartbeatIntervalMs - limits.heartbeatGraceMs;
      const identifyDeadline = now - limits.identifyTimeoutMs;
      for (const connection of connections) {
        if (connection.lastHeartbeatAt < deadline) connection.close(GatewayCloseCodes.SessionTimedOut);
        else if (connection.awaitingIdentifySince !== null && connection.awaitingIdentifySince < identifyDeadline)
          connection.close(GatewayCloseCodes.NotAuthenticated, `Not authenticated: no IDENTIFY or RESUME within ${limits.identifyTimeoutMs / 1000} s`);
      }
    },
    Math.max(50, Math.min(limits.heartbeatIntervalMs / 4, limits.identifyTimeoutMs / 4, 5000)),
  ).unref();

  // Stored sessions: this instance's are seen, expired ones (any instance's) deleted, and
  // the voice connections of ended sessions disconnected.
  // Touched before the sweep, so a connected session outlives any jump of the clock.
  async function housekeeping(): Promise<{ sessions: number; voiceStates: number }> {
    const now = new Date();
    await touchSessions(db, [...live.keys()], now);
    const sessions = await sweepSessions(db, now, limits.resumableMs);
    return { sessions, voiceStates: await disconnectEndedSessions(db) };
  }
  const housekeepingTimer = setInterval(() => void housekeeping().catch(log), limits.housekeepingMs).unref();

  function accept(ws: WebSocket, query: URLSearchParams, address: string): void {
    const transport = transportOf(query);
    if ("refuse" in transport) return ws.close(transport.refuse, transport.reason);
    const fromAddress = byAddress.get(address) ?? new Set<Connection>();
    const waiting = [...fromAddress].filter((connection) => connection.view === null).length;
    if (waiting >= limits.unidentifiedPerAddress)
      return ws.close(GatewayCloseCodes.RateLimited, `Rate limited: ${waiting} connections from this address are waiting to identify`);
    sockets.add(ws);
    const connection = new Connection(ws, createFrameSender(ws, transport.zlibStream ? "zlib-stream" : "json"), host, performance.now());
    connections.add(connection);
    byAddress.set(address, fromAddress.add(connection));
    ws.once("close", () => {
      sockets.delete(ws);
      fromAddress.delete(connection);
      if (fromAddress.size === 0 && byAddress.get(address) === fromAddress) byAddress.delete(address);
    });
    connection.hello(limits.heartbeatIntervalMs);
  }

  return {
    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? "/", "http://gateway");
      if (closing || url.pathname.replace(/\/$/, "") !== "/gateway") return void socket.destroy();
      // The client as the REST side sees it: the peer, or what a trusted proxy says it heard from.
      const address = clientAddress(req.socket.remoteAddress ?? null, req.headers["x-forwarded-for"]?.toString() ?? null, options.trustedProxies ?? null) ?? "";
      wss.handleUpgrade(req, socket, head, (ws) => accept(ws, url.searchParams, address));
    },
    close() {
      closing ??= shutDown();
      return closing;
    },
    reconnectAll() {
      // The outbox may have been replaced (a test twin's restore): its sequences start over.
      heard = 0;
      const told = connections.size;
      void tellToReconnect();
      return told;
    },
    get sessionCount() {
      return live.size;
    },
    injectFault(match, action) {
      // Sessions still sending their first GUILD_CREATEs count too: their client has READY.
      const reached = [...connections].filter((connection) => connection.view !== null && faultReaches(match, connection.view));
      for (const connection of reached) {
        switch (action.type) {
          case "close":
            connection.close(action.code, action.reason);
            break;
          case "reconnect":
            connection.reconnect();
            // As on shutdown: a client that stays after op 7 is dropped, its session resumable.
            setTimeout(() => connection.terminate(), RECONNECT_WAIT_MS).unref();
            break;
          case "invalid_session":
            if (!action.resumable) {
              const sessionId = connection.view!.sessionId;
              if (live.get(sessionId) === connection) live.delete(sessionId);
              starting.delete(connection);
              liveTargets = null;
            }
            connection.invalidateSession(action.resumable);
            break;
          case "drop_heartbeat_acks":
            connection.dropHeartbeatAcks(action.count);
        }
      }
      return reached.length;
    },
    async housekeep() {
      const ended = await housekeeping();
      await chain;
      return ended;
    },
  };

  async function shutDown(): Promise<void> {
    clearInterval(zombieTimer);
    clearInterval(housekeepingTimer);
    unsubscribe();
    await tellToReconnect();
    await chain;
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }

  /** Op 7 to every connection open now; resolves once they closed, dropping those still open after a wait. */
  async function tellToReconnect(): Promise<void> {
    const open = [...sockets];
    for (const connection of connections) connection.reconnect();
    const closed = open.map((ws) => new Promise<void>((resolve) => ws.once("close", () => resolve())));
    const timeout = setTimeout(() => {
      for (const ws of open) ws.terminate();
    }, RECONNECT_WAIT_MS);
    await Promise.all(closed);
    clearTimeout(timeout);
  }
}
