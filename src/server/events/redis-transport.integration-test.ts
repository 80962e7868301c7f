import { GatewayDispatchEvents } from "discord-api-types/v10";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import type { StoredEvent } from "./event-bus.ts";
import { createRedisTransport, type EventTransport } from "./redis-transport.ts";

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

type Instance = { transport: EventTransport; own: StoredEvent[]; remote: StoredEvent[]; heard: StoredEvent[]; resets: number };

describe("events over Redis", () => {
  const clients: Redis[] = [];
  const transports: EventTransport[] = [];
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
    for (const client of clients) client.disconnect();
  });

  /** An instance as the fan-out wires one: `heard` is what its event listeners get, in order. */
  function instance(channel: string): Instance {
    const redis = new Redis(redisUrl);
    clients.push(redis);
    const self: Instance = { own: [], remote: [], heard: [], resets: 0, transport: undefined as unknown as EventTransport };
    self.transport = createRedisTransport({
      redis,
      channel,
      onOwn: (events) => (self.own.push(...events), self.heard.push(...events)),
      onRemote: (events) => (self.remote.push(...events), self.heard.push(...events)),
      onReset: () => void (self.resets += 1),
      log: () => {
        // The reset test breaks a connection on purpose.
      },
    });
    transports.push(self.transport);
    return self;
  }

  const event = (seq: number, guildId: string): StoredEvent => ({
    seq,
    type: GatewayDispatchEvents.GuildRoleDelete,
    guildId,
    data: { guild_id: guildId, role_id: String(seq) },
    createdAt: new Date().toISOString(),
  });
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(check()).toBe(true);
  };

  it("delivers every event once to every instance, in one order for all", async () => {
    const channel = `guildhall:test:${randomBytes(4).toString("hex")}`;
    const a = instance(channel);
    const b = instance(channel);
    await Promise.all([a.transport.live(), b.transport.live()]);
    let seq = 0;
    for (let round = 0; round < 20; round++) {
      a.transport.send([event(++seq, "1"), event(++seq, "2")]);
      b.transport.send([event(++seq, "1")]);
    }
    await until(() => a.heard.length === seq && b.heard.length === seq);
    expect(a.heard.map((e) => e.seq)).toEqual(b.heard.map((e) => e.seq));
    // Each instance's own events come back to its listeners; its caches dropped them when sent.
    expect(a.own.every((e) => e.seq % 3 !== 0)).toBe(true);
    expect(a.remote.map((e) => e.seq)).toEqual(b.own.map((e) => e.seq));
    // One sender's events keep its order.
    const fromA = b.remote.map((e) => e.seq);
    expect(fromA).toEqual([...fromA].sort((x, y) => x - y));
  });

  it("resets an instance that lost its subscription, and is live again once resubscribed", async () => {
    const channel = `guildhall:test:${randomBytes(4).toString("hex")}`;
    const a = instance(channel);
    await a.transport.live();
    const before = a.transport.liveEpoch;
    const admin = new Redis(redisUrl);
    clients.push(admin);
    const list = (await admin.client("LIST")) as string;
    const line = list.split("\n").find((l) => l.includes(`name=guildhall-events-${a.transport.instanceId} `));
    const id = line && /\bid=(\d+)/.exec(line)?.[1];
    expect(id).toBeDefined();
    await admin.client("KILL", "ID", id!);
    await until(() => a.resets === 1);
    await a.transport.live();
    expect(a.transport.liveEpoch).not.toBe(before);
    expect(a.transport.liveEpoch).not.toBeNull();
  });
});
