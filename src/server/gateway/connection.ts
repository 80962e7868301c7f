import { GatewayCloseCodes, GatewayDispatchEvents, GatewayOpcodes } from "discord-api-types/v10";
import type { RawData, WebSocket } from "ws";
import type { StoredEvent } from "~/server/events/event-map.ts";
import { outboxHead, storedEventsAfter } from "~/server/events/outbox-read.ts";
import { disconnectEndedSessions } from "~/server/members/voice.service.ts";
import { changePresence } from "~/server/presences/presence.service.ts";
import { closeMeaning, GatewayCloseError, type CloseCode, type ProtocolCloseCode } from "./close-codes.ts";
import { GATEWAY_COMMANDS } from "./command-table.ts";
import { ZFrame, ZHeartbeat, ZIdentify, ZResume } from "./commands.ts";
import { createFrameSender, type FrameSender } from "./frame-sender.ts";
import type { CommandContext } from "./gateway-command.ts";
import type { Dispatch, GatewaySessionView } from "./gateway-types.ts";
import { identify, resumableView, type HandshakeDeps } from "./handshake.ts";
import { forgetSession, markSessionClosed, markSessionResumed } from "./session-store.ts";

/** Bytes sent and not yet taken by a client before it is dropped (resumable, so it loses nothing it reconnects for). */
const MAX_UNREAD_BYTES = 16 * 1024 * 1024;

/** The platform's limit on one client payload. */
const MAX_CLIENT_PAYLOAD_BYTES = 4096;

/**
 * Test mode's record of one connection (twin/call-capture.ts): frames as sent and received,
 * the close, and the session once IDENTIFY or RESUME gave it one.
 */
export type FrameLog = {
  frame(direction: "in" | "out", text: string): void;
  closed(direction: "in" | "out", code: number): void;
  identified(view: GatewaySessionView): void;
};

/** What a connection needs from its gateway. */
export type ConnectionHost = HandshakeDeps & {
  log: (error: unknown) => void;
  /** Commands per window before 4008 (the platform: 120 per 60 s). */
  commandLimit: { count: number; windowMs: number };
  /** The connection hears committed events from now on, into its buffer, until it goes live. */
  startBuffering(connection: Connection): void;
  /** The connection's session receives events as they are routed; its buffer is empty. */
  goLive(connection: Connection): void;
  /** The connection is gone; true when it still held its session (no newer connection resumed it). */
  remove(connection: Connection): boolean;
  /** A record of each connection's frames (test mode); absent, nothing is recorded. */
  frameLog?: () => FrameLog;
};

type State = "new" | "handshake" | "starting" | "live" | "closed";

/** One WebSocket connection and its session: the protocol state machine. */
export class Connection {
  private state: State = "new";
  /** Set once IDENTIFY or RESUME succeeded. */
  view: GatewaySessionView | null = null;
  /** The token the session was started or resumed with. */
  tokenId: string | null = null;
  /** Events heard while the session starts, delivered after READY (or the replay) in order. */
  buffer: StoredEvent[] = [];
  /** performance.now() of the last heartbeat (or of the connection's start): liveness is real time. */
  lastHeartbeatAt: number;
  /**
   * performance.now() since when the connection has been waiting for IDENTIFY or RESUME (its
   * HELLO, or an op 9 asking for a new IDENTIFY); null while one is handled or a session runs.
   */
  awaitingIdentifySince: number | null;
  /** Closed with a code that ends the session: its row is deleted, not marked closed. */
  private isForgotten = false;
  /** performance.now() when the command window began: a rate in real time, so a frozen test clock never fills it for good. */
  private windowStart = Number.NEGATIVE_INFINITY;
  /** The sequence of the last dispatch sent: what a command's answer carries. */
  private lastSeq: number | null = null;
  private commandsInWindow = 0;
  /** Heartbeats left unacknowledged by a test twin's fault. */
  private acksToDrop = 0;
  private readonly frames: FrameLog | null;

  constructor(
    private readonly ws: WebSocket,
    private sender: FrameSender,
    private readonly host: ConnectionHost,
    now: number,
  ) {
    this.lastHeartbeatAt = now;
    this.awaitingIdentifySince = now;
    this.frames = host.frameLog?.() ?? null;
    ws.on("message", (data, isBinary) => this.receive(data, isBinary));
    ws.on("close", (code) => this.closed(code));
    // A socket error (a reset, a frame past ws's own limit) ends the connection; "close" follows.
    ws.on("error", () => ws.terminate());
  }

  get isLive(): boolean {
    return this.state === "live";
  }

  hello(heartbeatIntervalMs: number): void {
    this.sendJson({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: heartbeatIntervalMs } });
  }

  /** Sends one serialised dispatch frame; a client that stopped reading is dropped rather than buffered without end. */
  sendFrame(text: string): void {
    if (this.ws.bufferedAmount > MAX_UNREAD_BYTES) return this.close(GatewayCloseCodes.UnknownError, "the client is not reading its events");
    this.frames?.frame("out", text);
    this.sender.send(text);
  }

  /** Closes with a code of the platform's table (or, for a test twin, the protocol's); a session that may not be resumed is forgotten. */
  close(code: CloseCode | ProtocolCloseCode, reason?: string): void {
    if (this.state === "closed") return;
    const meaning = closeMeaning(code);
    if (!meaning.resumable && this.view) {
      this.isForgotten = true;
      this.endSession();
    }
    this.ws.close(code, (reason ?? meaning.reason).slice(0, 120));
    this.frames?.closed("out", code);
    this.state = "closed";
  }

  /** Graceful shutdown: the client is told to reconnect (and resume elsewhere). */
  reconnect(): void {
    this.sendJson({ op: GatewayOpcodes.Reconnect, d: null });
  }

  /**
   * Op 9, as the platform invalidates a live session: `resumable` tells the client to resume
   * it; otherwise the session ends here and this connection takes a new IDENTIFY (the gateway
   * has stopped routing to it).
   */
  invalidateSession(resumable: boolean): void {
    this.sendJson({ op: GatewayOpcodes.InvalidSession, d: resumable });
    if (resumable) return;
    this.endSession();
    this.view = null;
    this.tokenId = null;
    this.awaitIdentify();
  }

  /** Back to waiting for IDENTIFY or RESUME, with a fresh deadline: the gateway asked for a new one. */
  private awaitIdentify(): void {
    this.state = "new";
    this.awaitingIdentifySince = performance.now();
  }

  /** A test twin's fault: the next `count` heartbeats are not acknowledged, so the client's zombie detection reconnects (its session stays resumable). */
  dropHeartbeatAcks(count: number): void {
    this.acksToDrop = count;
  }

  /** The session is over: its row, its presence, and its voice connections with it. */
  private endSession(): void {
    if (!this.view) return;
    const { sessionId, botUserId } = this.view;
    void changePresence(this.host.db, botUserId, (tx) => forgetSession(tx, sessionId))
      .then(() => disconnectEndedSessions(this.host.db))
      .catch(this.host.log);
  }

  terminate(): void {
    this.ws.terminate();
  }

  private sendJson(payload: unknown): void {
    const text = JSON.stringify(payload);
    this.frames?.frame("out", text);
    this.sender.send(text);
  }

  /** Sends a routed dispatch frame, serialised once for every session it goes to, with its outbox sequence. */
  sendDispatchFrame(text: string, seq: number): void {
    this.lastSeq = seq;
    this.sendFrame(text);
  }

  private sendDispatches(dispatches: readonly Dispatch[], seq: number): void {
    for (const dispatch of dispatches) this.sendDispatchFrame(JSON.stringify({ op: GatewayOpcodes.Dispatch, t: dispatch.t, s: seq, d: dispatch.d }), seq);
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.state === "closed") return;
    try {
      this.handle(data, isBinary);
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    if (error instanceof GatewayCloseError) return this.close(error.code, error.message);
    this.host.log(error);
    this.close(GatewayCloseCodes.UnknownError);
  }

  private handle(data: RawData, isBinary: boolean): void {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (bytes.length > MAX_CLIENT_PAYLOAD_BYTES) throw new GatewayCloseError(GatewayCloseCodes.DecodeError, "payload over 4096 bytes");
    if (isBinary) throw new GatewayCloseError(GatewayCloseCodes.DecodeError, "binary frames are not taken (encoding=json)");
    this.countCommand();
    const text = bytes.toString("utf8");
    this.frames?.frame("in", text);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new GatewayCloseError(GatewayCloseCodes.DecodeError, "malformed JSON");
    }
    const frame = ZFrame.safeParse(json);
    if (!frame.success) throw new GatewayCloseError(GatewayCloseCodes.DecodeError, "not a gateway payload");
    const { op, d } = frame.data;
    switch (op) {
      case GatewayOpcodes.Heartbeat:
        if (!ZHeartbeat.safeParse(d).success) throw new GatewayCloseError(GatewayCloseCodes.DecodeError, "heartbeat d must be a sequence or null");
        // A heartbeat whose ACK a fault drops still proves the connection alive to the gateway.
        this.lastHeartbeatAt = performance.now();
        if (this.acksToDrop > 0) return void this.acksToDrop--;
        return this.sendJson({ op: GatewayOpcodes.HeartbeatAck });
      case GatewayOpcodes.Identify: {
        if (this.state !== "new") throw new GatewayCloseError(GatewayCloseCodes.AlreadyAuthenticated);
        const command = ZIdentify.safeParse(d);
        if (!command.success) throw new GatewayCloseError(GatewayCloseCodes.DecodeError, `identify: ${command.error.issues[0]?.path.join(".")}`);
        this.state = "handshake";
        this.awaitingIdentifySince = null;
        return void this.identify(command.data).catch((error: unknown) => this.fail(error));
      }
      case GatewayOpcodes.Resume: {
        if (this.state !== "new") throw new GatewayCloseError(GatewayCloseCodes.AlreadyAuthenticated);
        const command = ZResume.safeParse(d);
        if (!command.success) throw new GatewayCloseError(GatewayCloseCodes.DecodeError, `resume: ${command.error.issues[0]?.path.join(".")}`);
        this.state = "handshake";
        this.awaitingIdentifySince = null;
        return void this.resume(command.data).catch((error: unknown) => this.fail(error));
      }
    }
    const command = GATEWAY_COMMANDS[op as GatewayOpcodes];
    if (!command) throw new GatewayCloseError(GatewayCloseCodes.UnknownOpcode, `opcode ${op}`);
    if (this.state !== "live" && this.state !== "starting") throw new GatewayCloseError(GatewayCloseCodes.NotAuthenticated);
    const payload = command.shape.safeParse(d);
    if (!payload.success)
      throw new GatewayCloseError(GatewayCloseCodes.DecodeError, `opcode ${op}: ${payload.error.issues[0]?.path.join(".") || "bad payload"}`);
    void command.run(this.commandContext(), payload.data).catch((error: unknown) => this.fail(error));
  }

  private commandContext(): CommandContext {
    return {
      db: this.host.db,
      view: this.view!,
      now: this.host.now,
      send: (t, d) => this.sendFrame(JSON.stringify({ op: GatewayOpcodes.Dispatch, t, s: this.lastSeq, d })),
      isClosed: () => this.isClosed(),
    };
  }

  /** The platform counts every command, heartbeats included, in a fixed window. */
  private countCommand(): void {
    const now = performance.now();
    const { count, windowMs } = this.host.commandLimit;
    if (now - this.windowStart >= windowMs) {
      this.windowStart = now;
      this.commandsInWindow = 0;
    }
    if (++this.commandsInWindow > count) throw new GatewayCloseError(GatewayCloseCodes.RateLimited);
  }

  private async identify(command: Parameters<typeof identify>[1]): Promise<void> {
    const identified = await identify(this.host, command);
    if (this.state === "closed") return;
    if (!identified) {
      // The session start limit or the identify concurrency refused it: the client waits and identifies again.
      this.awaitIdentify();
      return this.sendJson({ op: GatewayOpcodes.InvalidSession, d: false });
    }
    const { view, ready } = identified;
    this.view = view;
    this.frames?.identified(view);
    this.tokenId = identified.tokenId;
    if (command.compress && this.sender.kind === "json") this.sender = createFrameSender(this.ws, "zlib-payload");
    this.beginStart();
    const head = await outboxHead(this.host.db);
    this.sendDispatches([{ sessions: [view], t: GatewayDispatchEvents.Ready, d: ready }], head);
    for (const guildId of ready.guilds.map((guild) => guild.id)) {
      const guild = await this.host.router.guildCreate(view, guildId);
      if (this.isClosed()) return;
      if (guild !== null) this.sendDispatches([{ sessions: [view], t: GatewayDispatchEvents.GuildCreate, d: guild }], head);
    }
    await this.drainBuffer(head);
  }

  private async resume(command: { token: string; session_id: string; seq: number }): Promise<void> {
    const resumable = await resumableView(this.host, command);
    if (this.state === "closed") return;
    if (!resumable) {
      this.awaitIdentify();
      return this.sendJson({ op: GatewayOpcodes.InvalidSession, d: false });
    }
    const { view } = resumable;
    this.view = view;
    this.frames?.identified(view);
    this.tokenId = resumable.tokenId;
    this.beginStart();
    let last = command.seq;
    for await (const event of storedEventsAfter(this.host.db, command.seq)) {
      this.sendDispatches(await this.host.router.route(event, [view]), event.seq);
      if (this.isClosed()) return;
      last = event.seq;
    }
    // The session's presence shows again (it showed offline while the session was closed).
    await changePresence(this.host.db, view.botUserId, (tx) => markSessionResumed(tx, view.sessionId, this.host.now()));
    this.lastSeq = last;
    this.sendJson({ op: GatewayOpcodes.Dispatch, t: GatewayDispatchEvents.Resumed, s: last, d: null });
    await this.drainBuffer(last);
  }

  private beginStart(): void {
    this.state = "starting";
    this.host.startBuffering(this);
  }

  private isClosed(): boolean {
    return this.state === "closed";
  }

  /** Sends what was heard while starting (newer than what was already sent), then goes live with nothing in between. */
  private async drainBuffer(after: number): Promise<void> {
    const view = this.view!;
    while (this.buffer.length > 0) {
      const event = this.buffer.shift()!;
      if (event.seq <= after) continue;
      this.sendDispatches(await this.host.router.route(event, [view]), event.seq);
      if (this.isClosed()) return;
    }
    this.state = "live";
    this.host.goLive(this);
  }

  private closed(code: number): void {
    // Closed by the client (or its network): a close the gateway sent was recorded as it went.
    if (this.state !== "closed") this.frames?.closed("in", code);
    this.state = "closed";
    this.buffer = [];
    this.sender.dispose?.();
    // A session resumed on another connection of this instance is not closed by its old one.
    const ownedSession = this.host.remove(this);
    if (!ownedSession || !this.view || this.isForgotten) return;
    // Its user shows offline unless another session of theirs is open; a RESUME shows them again.
    const { sessionId, botUserId } = this.view;
    void changePresence(this.host.db, botUserId, (tx) => markSessionClosed(tx, sessionId, this.host.now())).catch(this.host.log);
  }
}
