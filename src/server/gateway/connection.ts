import { GatewayCloseCodes, GatewayDispatchEvents, GatewayOpcodes } from "discord-api-types/v10";
import type { RawData, WebSocket } from "ws";
import type { StoredEvent } from "~/server/events/event-map.ts";
import { outboxHead, storedEventsAfter } from "~/server/events/outbox-read.ts";
import { disconnectEndedSessions } from "~/server/members/voice.service.ts";
import { changePresence } from "~/server/presences/presence.service.ts";
import { closeMeaning, GatewayCloseError, type CloseCode, type ProtocolCloseCode } from "./close-codes.ts";
import { GATEWAY_COMMANDS } from "./command-table.ts";
import { ZFrameSchema, ZHeartbeatSchema, ZIdentifySchema, ZResumeSchema } from "./commands.ts";
import { createFrameSender, type FrameSender } from "./frame-sender.ts";
import type { ConnectionHost, FrameLog } from "./connection-host.ts";
import type { CommandContext } from "./gateway-command.ts";
import type { Dispatch, GatewaySessionView } from "./gateway-types.ts";
import { identify } from "./handshake.ts";
import { replayShown, resumeSession } from "./resume.ts";
import { SessionSequence, type Numbered, type SequenceMap } from "./session-sequence.ts";
import { forgetSession, markSessionClosed } from "./session-store.ts";

/** Bytes sent and not yet taken by a client before it is dropped (resumable, so it loses nothing it reconnects for). */
const MAX_UNREAD_BYTES = 16 * 1024 * 1024;

/** The platform's limit on one client payload. */
const MAX_CLIENT_PAYLOAD_BYTES = 4096;

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
  /** A RESUME on another connection of this instance took the session over: this one ends without marking it closed. */
  isHandedOver = false;
  /** The session went live here: live events reached it through the gateway, not only through its start. */
  private hasGoneLive = false;
  /** performance.now() when the command window began: a rate in real time, so a frozen test clock never fills it for good. */
  private windowStart = Number.NEGATIVE_INFINITY;
  /** The session's dispatch numbering on this connection. */
  private sequence = new SessionSequence(0, 0);
  private commandsInWindow = 0;
  /** Heartbeats left unacknowledged by a test twin's fault. */
  private acksToDrop = 0;
  private readonly frames: FrameLog | null;

  constructor(
    private readonly ws: WebSocket,
    private sender: FrameSender,
    private readonly host: ConnectionHost<Connection>,
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

  /** Sends one serialised frame; a client that stopped reading is dropped rather than buffered without end. */
  private sendFrame(text: string): void {
    if (this.state === "closed") return;
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

  /**
   * Sends a routed event's dispatch, its payload serialised once for every session it goes to,
   * numbered for this session. Numbered even once the connection is closed: the map it leaves
   * says the client may have missed it.
   */
  sendEventDispatch(t: string, payload: string, event: StoredEvent): void {
    const s = this.sequence.next({ kind: "event", seq: event.seq, t, guildId: event.guildId });
    this.sendFrame(`{"op":${GatewayOpcodes.Dispatch},"t":${JSON.stringify(t)},"s":${s},"d":${payload}}`);
  }

  /** Sends a dispatch of this session alone (not routed), numbered. */
  private sendDispatch(t: string, d: unknown, numbered: Numbered): void {
    const s = this.sequence.next(numbered);
    this.sendFrame(JSON.stringify({ op: GatewayOpcodes.Dispatch, t, s, d }));
  }

  /** Sends what routing made of one event for this session; the session has been routed everything up to it. */
  private sendRouted(dispatches: readonly Dispatch[], event: StoredEvent): void {
    for (const dispatch of dispatches) this.sendEventDispatch(dispatch.t, JSON.stringify(dispatch.d), event);
    this.sequence.routedThrough(event.seq);
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
    const frame = ZFrameSchema.safeParse(json);
    if (!frame.success) throw new GatewayCloseError(GatewayCloseCodes.DecodeError, "not a gateway payload");
    const { op, d } = frame.data;
    switch (op) {
      case GatewayOpcodes.Heartbeat: {
        const beat = ZHeartbeatSchema.safeParse(d);
        if (!beat.success) throw new GatewayCloseError(GatewayCloseCodes.DecodeError, "heartbeat d must be a sequence or null");
        // What the client has received needs no mapping back to the outbox any more.
        this.sequence.acknowledge(beat.data);
        // A heartbeat whose ACK a fault drops still proves the connection alive to the gateway.
        this.lastHeartbeatAt = performance.now();
        if (this.acksToDrop > 0) return void this.acksToDrop--;
        return this.sendJson({ op: GatewayOpcodes.HeartbeatAck });
      }
      case GatewayOpcodes.Identify: {
        if (this.state !== "new") throw new GatewayCloseError(GatewayCloseCodes.AlreadyAuthenticated);
        const command = ZIdentifySchema.safeParse(d);
        if (!command.success) throw new GatewayCloseError(GatewayCloseCodes.DecodeError, `identify: ${command.error.issues[0]?.path.join(".")}`);
        this.state = "handshake";
        this.awaitingIdentifySince = null;
        return void this.identify(command.data).catch((error: unknown) => this.fail(error));
      }
      case GatewayOpcodes.Resume: {
        if (this.state !== "new") throw new GatewayCloseError(GatewayCloseCodes.AlreadyAuthenticated);
        const command = ZResumeSchema.safeParse(d);
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
      send: (t, d) => this.sendDispatch(t, d, { kind: "own" }),
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
    this.sequence = new SessionSequence(0, head);
    this.sendDispatch(GatewayDispatchEvents.Ready, ready, { kind: "own" });
    await this.sendGuildCreates(ready.guilds.map((guild) => guild.id));
    if (!this.isClosed()) await this.drainBuffer(head);
  }

  /** The GUILD_CREATEs of the session's start, for the guilds its bot is still in. */
  private async sendGuildCreates(guildIds: readonly string[]): Promise<void> {
    for (const guildId of guildIds) {
      const guild = await this.host.router.guildCreate(this.view!, guildId);
      if (this.isClosed()) return;
      if (guild !== null) this.sendDispatch(GatewayDispatchEvents.GuildCreate, guild, { kind: "start", guildId });
    }
  }

  private async resume(command: { token: string; session_id: string; seq: number }): Promise<void> {
    const resumed = await resumeSession(this.host, command);
    if (this.state === "closed") return;
    if (!resumed) {
      this.awaitIdentify();
      return this.sendJson({ op: GatewayOpcodes.InvalidSession, d: false });
    }
    const { view, point } = resumed;
    this.view = view;
    this.frames?.identified(view);
    this.tokenId = resumed.tokenId;
    // Numbered on from the client's `s`: what it missed comes again with the numbers it would have had.
    this.sequence = new SessionSequence(point.s, point.position);
    this.beginStart();
    // Up to the head the replay reads; later events are heard while starting, into the buffer.
    const head = await outboxHead(this.host.db);
    const shown = await replayShown(this.host, resumed);
    await this.sendGuildCreates(point.guildCreates);
    for await (const event of storedEventsAfter(this.host.db, point.position, head)) {
      if (this.isClosed()) return;
      this.sendRouted(shown(event, await this.host.router.route(event, [view])), event);
    }
    if (this.isClosed()) return;
    this.sequence.routedThrough(head);
    this.sendDispatch(GatewayDispatchEvents.Resumed, null, { kind: "own" });
    await this.drainBuffer(head);
  }

  /**
   * A RESUME on another connection takes the session: this one ends at once, and says where its
   * client was, once the live events heard until now have reached it.
   */
  async handOver(): Promise<SequenceMap> {
    this.isHandedOver = true;
    this.terminate();
    return this.sequenceMap();
  }

  /** Where this connection's client was: its numbering, and what the session was routed and held. */
  private async sequenceMap(): Promise<SequenceMap> {
    // Live events reach a session through the gateway's routing, in order: those heard so far went to it, or will have once settled.
    const heard = this.hasGoneLive ? await this.host.settled() : 0;
    return this.sequence.map(heard, this.view!.guildIds);
  }

  private beginStart(): void {
    this.state = "starting";
    this.hasGoneLive = false;
    this.host.startBuffering(this);
  }

  /** Closed, or handed over to a RESUME (its close may not have been heard yet): it sends nothing more and never goes live. */
  private isClosed(): boolean {
    return this.state === "closed" || this.isHandedOver;
  }

  /** Sends what was heard while starting (newer than what was already sent), then goes live with nothing in between. */
  private async drainBuffer(after: number): Promise<void> {
    const view = this.view!;
    while (this.buffer.length > 0) {
      const event = this.buffer.shift()!;
      if (event.seq <= after) continue;
      this.sendRouted(await this.host.router.route(event, [view]), event);
      if (this.isClosed()) return;
    }
    this.state = "live";
    this.hasGoneLive = true;
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
    if (!ownedSession || !this.view || this.isForgotten || this.isHandedOver) return;
    void this.markClosed(this.view).catch(this.host.log);
  }

  /** The session waits for a RESUME, on any instance, from where its client was. */
  private async markClosed({ sessionId, botUserId }: GatewaySessionView): Promise<void> {
    const map = await this.sequenceMap();
    // Its user shows offline unless another session of theirs is open; a RESUME shows them again.
    await changePresence(this.host.db, botUserId, (tx) => markSessionClosed(tx, sessionId, this.host.now(), map));
  }
}
