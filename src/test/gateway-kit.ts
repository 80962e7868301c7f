import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { constants, createInflate, inflateSync, type Inflate } from "node:zlib";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { WebSocket } from "ws";
import { createGateway, type Gateway } from "~/server/gateway/gateway.ts";
import type { GatewayLimits } from "~/server/gateway/gateway-limits.ts";
import type { EventRouter } from "~/server/gateway/gateway-types.ts";
import type { TrustedProxies } from "~/server/http/client-address.ts";
import { serveNode } from "~/server/http/node-adapter.ts";
import { addMember, makeBot, makeGuild } from "./factories.ts";
import type { TestApp } from "./test-app.ts";

/** A gateway frame as a client reads it. */
export type Frame = { op: number; d: unknown; s?: number | null; t?: string | null };

export type GatewayServer = {
  /** The gateway's address with this query (by default v=10&encoding=json). */
  url(query?: string): string;
  /** The REST base, for raw HTTP calls. */
  httpUrl(path: string): string;
  gateway(): Gateway;
  /** Connects a raw client; with zlibStream the query asks for compress=zlib-stream; `headers` go with the upgrade request. */
  connect(options?: { query?: string; zlibStream?: boolean; headers?: Record<string, string> }): Promise<GatewayClient>;
};

/**
 * Serves the test app's REST dispatcher and a gateway on node:http (an ephemeral port) for a
 * test file, as server.ts does. Every error the gateway logs fails the test that caused it.
 */
export function useGatewayServer(
  app: TestApp,
  options: { router: () => EventRouter; limits?: Partial<GatewayLimits>; trustedProxies?: TrustedProxies },
): GatewayServer {
  let server: Server;
  let gateway: Gateway;
  const errors: unknown[] = [];
  const clients = new Set<GatewayClient>();
  const base = () => `127.0.0.1:${(server.address() as AddressInfo).port}`;
  beforeAll(async () => {
    server = createServer((req, res) => serveNode(app.handler, req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    gateway = createGateway({
      db: app.db,
      subscribe: app.runtime.events.subscribe,
      router: options.router(),
      publicBaseUrl: `http://${base()}`,
      limits: options.limits,
      trustedProxies: options.trustedProxies,
      log: (error) => errors.push(error),
    });
    server.on("upgrade", (req, socket, head) => gateway.handleUpgrade(req, socket, head));
  });
  afterEach(() => {
    for (const client of clients) client.terminate();
    clients.clear();
    expect(errors.splice(0), "errors the gateway logged").toEqual([]);
  });
  afterAll(async () => {
    await gateway.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const url = (query = "v=10&encoding=json") => `ws://${base()}/gateway?${query}`;
  return {
    url,
    httpUrl: (path) => `http://${base()}${path}`,
    gateway: () => gateway,
    async connect(connectOptions = {}) {
      const query = connectOptions.query ?? `v=10&encoding=json${connectOptions.zlibStream ? "&compress=zlib-stream" : ""}`;
      const client = await GatewayClient.connect(url(query), connectOptions.zlibStream ?? false, connectOptions.headers);
      clients.add(client);
      return client;
    },
  };
}

const CEILING_MS = 15_000;

/** A raw gateway client: reads frames in order, decoding zlib-stream and compressed payloads. */
export class GatewayClient {
  private readonly frames: Frame[] = [];
  private readonly waiters = new Set<() => void>();
  private inflate: Inflate | null = null;
  private inflated: Buffer[] = [];
  private decoding = Promise.resolve();
  /** Every binary message's bytes as received (zlib-stream messages end in 00 00 ff ff). */
  readonly binaryMessages: Buffer[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(
    readonly ws: WebSocket,
    zlibStream: boolean,
  ) {
    if (zlibStream) {
      this.inflate = createInflate();
      this.inflate.on("data", (chunk: Buffer) => this.inflated.push(chunk));
    }
    ws.on("message", (data: Buffer, isBinary) => {
      if (!isBinary) return this.push(JSON.parse(data.toString("utf8")) as Frame);
      this.binaryMessages.push(data);
      if (!this.inflate) return this.push(JSON.parse(inflateSync(data).toString("utf8")) as Frame);
      const inflate = this.inflate;
      this.decoding = this.decoding.then(
        () =>
          new Promise<void>((resolve) => {
            inflate.write(data);
            inflate.flush(constants.Z_SYNC_FLUSH, () => {
              const text = Buffer.concat(this.inflated).toString("utf8");
              this.inflated = [];
              this.push(JSON.parse(text) as Frame);
              resolve();
            });
          }),
      );
    });
    this.closed = new Promise((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
    void this.closed.then(() => this.wake());
  }

  static async connect(url: string, zlibStream: boolean, headers?: Record<string, string>): Promise<GatewayClient> {
    const ws = new WebSocket(url, { headers });
    const client = new GatewayClient(ws, zlibStream);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    return client;
  }

  private push(frame: Frame): void {
    this.frames.push(frame);
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters) waiter();
  }

  send(payload: unknown): void {
    this.ws.send(typeof payload === "string" ? payload : JSON.stringify(payload));
  }

  /** The first unread frame matching `match` (frames before it are dropped), failing after a generous ceiling. */
  async waitFor(match: (frame: Frame) => boolean = () => true, what = "a frame"): Promise<Frame> {
    return (await this.framesThrough(match, what)).at(-1)!;
  }

  /** The unread frames up to and including the first matching `match` (consumed), failing after a generous ceiling. */
  async framesThrough(match: (frame: Frame) => boolean, what: string): Promise<Frame[]> {
    const deadline = performance.now() + CEILING_MS;
    for (;;) {
      const index = this.frames.findIndex(match);
      if (index >= 0) return this.frames.splice(0, index + 1);
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error(`connection closed while waiting for ${what}`);
      if (performance.now() > deadline) throw new Error(`no ${what} within ${CEILING_MS} ms`);
      await new Promise<void>((resolve) => {
        const waiter = () => {
          this.waiters.delete(waiter);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(waiter, deadline - performance.now());
        this.waiters.add(waiter);
      });
    }
  }

  /** The next unread frame. */
  next(): Promise<Frame> {
    return this.waitFor(undefined, "the next frame");
  }

  /** The next dispatch of type `t`. */
  dispatch(t: string): Promise<Frame> {
    return this.waitFor((frame) => frame.op === 0 && frame.t === t, `a ${t} dispatch`);
  }

  /** Frames read so far and not consumed. */
  unread(): readonly Frame[] {
    return this.frames;
  }

  /** Sends IDENTIFY with the usual properties and these fields. */
  identify(fields: Record<string, unknown>): void {
    this.send({ op: 2, d: { properties: { os: "linux", browser: "guildhall-test", device: "guildhall-test" }, intents: 0, ...fields } });
  }

  /** Resolves with the close code the server sent, failing after a generous ceiling. */
  async closeCode(): Promise<number> {
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the connection did not close")), CEILING_MS).unref());
    return (await Promise.race([this.closed, timeout])).code;
  }

  terminate(): void {
    this.ws.terminate();
  }
}

/** A bot in `count` new guilds owned by another bot (which changes them over REST), as most gateway tests start. */
export async function botInGuilds(app: TestApp, count: number) {
  const owner = await makeBot(app.db);
  const bot = await makeBot(app.db);
  const guildIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const guild = await makeGuild(app.db, owner.actor);
    await addMember(app.db, guild.id, bot.user.id);
    guildIds.push(guild.id);
  }
  return { owner, bot, guildIds };
}

/** Connects, reads HELLO, identifies with `fields` and waits for READY. */
export async function identified(server: GatewayServer, token: string, fields: Record<string, unknown> = {}, options?: { zlibStream?: boolean }) {
  const client = await server.connect(options);
  await client.waitFor((frame) => frame.op === 10, "HELLO");
  client.identify({ token, ...fields });
  const ready = await client.dispatch("READY");
  return { client, ready };
}
