import { performance } from "node:perf_hooks";
import { GatewayDispatchEvents, GatewayOpcodes, type GatewayReceivePayload } from "discord-api-types/v10";
import WebSocket from "ws";
import type { ClientCommand, ClientReply } from "./gateway-protocol.ts";

// The gateway bench's clients, in a process of their own so that receiving does not share
// the server's event loop. Driven over IPC by bench/gateway.bench.ts: it opens many sockets
// (as identified bots, or as plain sockets to the floor), then times how long one trigger
// (a REST change, or the floor's broadcast) takes to reach each of them.

type Socket = {
  ws: WebSocket;
  /** When the awaited dispatch last arrived (performance.now()), for the trigger under way. */
  receivedAt: number | null;
  closeCode: number | null;
  heartbeats: number;
  acks: number;
  timer?: NodeJS.Timeout;
};

const sockets: Socket[] = [];
/** The dispatch type the current measurement waits for (the floor broadcasts the same frame). */
let awaited: string | null = null;
let onReceipt: (() => void) | null = null;
/** The text of the last awaited frame, for the floor to broadcast the same bytes. */
let lastFrame = "";

/** A frame's text: `ws` hands text frames over as a Buffer. */
function text(data: WebSocket.RawData): string {
  return (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString();
}

function reply(message: ClientReply): void {
  process.send!(message);
}

/** Opens one socket; with a token, runs the gateway handshake and resolves at its first GUILD_CREATE (or READY without guilds). */
function open(url: string, token: string | null, intents: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket: Socket = { ws: new WebSocket(url, { perMessageDeflate: false }), receivedAt: null, closeCode: null, heartbeats: 0, acks: 0 };
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(socket);
    };
    socket.ws.on("error", (error) => settle(error));
    socket.ws.on("close", (code) => {
      socket.closeCode = code;
      clearInterval(socket.timer);
      settle(new Error(`closed with ${code} before ready`));
    });
    if (!token) socket.ws.on("open", () => settle());
    socket.ws.on("message", (data) => {
      if (!settled && token) {
        const payload = JSON.parse(text(data)) as GatewayReceivePayload;
        if (payload.op === GatewayOpcodes.Hello) {
          const interval = payload.d.heartbeat_interval;
          const beat = () => {
            socket.heartbeats++;
            socket.ws.send(JSON.stringify({ op: GatewayOpcodes.Heartbeat, d: null }));
          };
          // The platform asks for a first heartbeat after interval × jitter, then one per interval.
          setTimeout(() => {
            beat();
            socket.timer = setInterval(beat, interval);
          }, interval * Math.random()).unref();
          socket.ws.send(
            JSON.stringify({
              op: GatewayOpcodes.Identify,
              d: { token, intents, properties: { os: "linux", browser: "guildhall-bench", device: "guildhall-bench" } },
            }),
          );
        } else if (payload.op === GatewayOpcodes.Dispatch) {
          const ready = payload.t === GatewayDispatchEvents.Ready;
          if (payload.t === GatewayDispatchEvents.GuildCreate || (ready && payload.d.guilds.length === 0)) settle();
        } else if (payload.op === GatewayOpcodes.HeartbeatAck) socket.acks++;
        return;
      }
      // Read the clock first, so both servers' frames pay the same parse after it.
      const at = performance.now();
      const payload = JSON.parse(text(data)) as GatewayReceivePayload;
      if (payload.op === GatewayOpcodes.HeartbeatAck) socket.acks++;
      else if (socket.receivedAt === null && payload.op === GatewayOpcodes.Dispatch && payload.t === awaited) {
        socket.receivedAt = at;
        lastFrame = text(data);
        onReceipt?.();
      }
    });
  });
}

async function connect(url: string, tokens: (string | null)[], intents: number, concurrency: number): Promise<ClientReply> {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tokens.length) {
      const token = tokens[next++]!;
      try {
        sockets.push(await open(url, token, intents));
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { kind: "connected", open: sockets.length, failures: failures.slice(0, 5), failed: failures.length };
}

/** Sends the trigger and waits until every socket received the awaited frame, or the ceiling passes. */
async function trigger(
  request: { url: string; method: string; headers: Record<string, string>; body: string },
  dispatchType: string,
  ceilingMs: number,
): Promise<ClientReply> {
  for (const socket of sockets) socket.receivedAt = null;
  awaited = dispatchType;
  let pending = sockets.length;
  const all = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ceilingMs);
    onReceipt = () => {
      if (--pending === 0) {
        clearTimeout(timer);
        resolve();
      }
    };
  });
  const sentAt = performance.now();
  const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  const answeredMs = performance.now() - sentAt;
  if (!res.ok) throw new Error(`${request.method} ${request.url} answered ${res.status}: ${await res.text()}`);
  await all;
  onReceipt = null;
  const latencies = sockets.flatMap((socket) => (socket.receivedAt === null ? [] : [socket.receivedAt - sentAt]));
  return { kind: "measured", latencies, expected: sockets.length, answeredMs, frame: lastFrame };
}

function status(): ClientReply {
  const closeCodes: Record<string, number> = {};
  for (const socket of sockets) if (socket.closeCode !== null) closeCodes[socket.closeCode] = (closeCodes[socket.closeCode] ?? 0) + 1;
  return {
    kind: "status",
    open: sockets.filter((s) => s.ws.readyState === WebSocket.OPEN).length,
    closeCodes,
    heartbeats: sockets.reduce((sum, s) => sum + s.heartbeats, 0),
    acks: sockets.reduce((sum, s) => sum + s.acks, 0),
  };
}

async function closeAll(): Promise<ClientReply> {
  await Promise.all(
    sockets.splice(0).map((socket) => {
      clearInterval(socket.timer);
      if (socket.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
      return new Promise((resolve) => {
        socket.ws.once("close", resolve);
        socket.ws.close(1000);
      });
    }),
  );
  return { kind: "closed" };
}

process.on("message", (command: ClientCommand) => {
  const work =
    command.kind === "connect"
      ? connect(command.url, command.tokens, command.intents, command.concurrency)
      : command.kind === "trigger"
        ? trigger(command.request, command.dispatchType, command.ceilingMs)
        : command.kind === "status"
          ? Promise.resolve(status())
          : closeAll();
  work.then(reply, (error: unknown) => reply({ kind: "error", message: error instanceof Error ? error.message : String(error) }));
});
reply({ kind: "started" });
