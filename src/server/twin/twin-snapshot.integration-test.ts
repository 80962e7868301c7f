import {
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
  type APIChannel,
  type APIGuild,
  type APIMessage,
  type GatewayReadyDispatchData,
} from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { createDb, sqliteWriteAccess } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { createRuntime } from "~/server/runtime/create-runtime.ts";
import { seedDemo } from "~/server/seed/demo-seed.ts";
import { guildAsUpdated } from "~/test/factories.ts";
import { GatewayClient } from "~/test/gateway-kit.ts";
import { until } from "~/test/until.ts";
import type { SnapshotInfo } from "./twin-snapshots.ts";
import type { TwinServer } from "~/server/twin/twin-server.ts";
import { startTestTwin } from "~/test/twin-kit.ts";
import { testProvider } from "~/test/test-db.ts";

/** Rows of gateway connections: a restore deletes them with the connections. */
const CONNECTIONS_HELD = new Set(["GatewaySession", "Presence", "GatewayIdentifySlot", "VoiceState"]);

let twin: TwinServer;
let info: TwinServer["info"];

beforeAll(async () => {
  twin = await startTestTwin();
  info = twin.info;
});
afterAll(() => twin.stop());

async function call<T>(base: string, authorization: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}
const twinCall = <T>(method: string, path: string, body?: unknown) => call<T>(info.twin_url, `Twin ${info.twin_token}`, method, path, body);
const botCall = <T>(method: string, path: string, body?: unknown) => call<T>(`${info.base_url}/v10`, `Bot ${info.bot_token}`, method, path, body);

async function snapshot(name?: string): Promise<SnapshotInfo> {
  const answer = await twinCall<SnapshotInfo>("POST", "/snapshots", name === undefined ? {} : { name });
  expect(answer.status).toBe(201);
  return answer.body;
}

async function restore(id: string): Promise<{ id: string; took_ms: number; sessions_reconnected: number }> {
  const answer = await twinCall<{ id: string; took_ms: number; sessions_reconnected: number }>("POST", `/snapshots/${id}/restore`);
  expect(answer.status).toBe(200);
  return answer.body;
}

const channelNames = async () => (await botCall<APIChannel[]>("GET", `/guilds/${info.guild_id}/channels`)).body.map((channel) => channel.name);
const guildName = async () => (await botCall<APIGuild>("GET", `/guilds/${info.guild_id}`)).body.name;
const searchCount = async (word: string) =>
  (await botCall<{ total_results: number }>("GET", `/guilds/${info.guild_id}/messages/search?content=${word}`)).body.total_results;

async function createChannel(name: string): Promise<APIChannel> {
  const answer = await botCall<APIChannel>("POST", `/guilds/${info.guild_id}/channels`, { name, type: 0 });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function post(channelId: string, content: string): Promise<APIMessage> {
  const answer = await botCall<APIMessage>("POST", `/channels/${channelId}/messages`, { content });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** A bot session: HELLO, IDENTIFY, READY, and its guild's GUILD_CREATE. */
async function identified(): Promise<{ client: GatewayClient; ready: GatewayReadyDispatchData; guild: APIGuild & { channels: APIChannel[] } }> {
  const client = await GatewayClient.connect(`${info.gateway_url}?v=10&encoding=json`, false);
  await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
  client.identify({ token: info.bot_token, intents: GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages });
  const ready = (await client.dispatch("READY")).d as GatewayReadyDispatchData;
  const guild = (await client.waitFor((frame) => frame.t === "GUILD_CREATE" && (frame.d as APIGuild).id === info.guild_id, "its GUILD_CREATE"))
    .d as APIGuild & { channels: APIChannel[] };
  return { client, ready, guild };
}

describe.runIf(testProvider() === "sqlite")("twin snapshots", () => {
  it("puts the world back as it was: REST reads, search, the clock, and gateway sessions that identify anew", async () => {
    const clock = twin.twin.clock;
    const kept = await createChannel("kept");
    await post(kept.id, "apple from before");
    const session = await identified();
    const original = await guildName();

    const taken = await snapshot("before");
    expect(taken).toMatchObject({ id: expect.any(String), name: "before", clock: { frozen: false } });
    expect(taken.bytes).toBeGreaterThan(0);

    expect((await botCall("PATCH", `/guilds/${info.guild_id}`, { name: "Renamed after the snapshot" })).status).toBe(200);
    const later = await createChannel("later");
    await post(later.id, "banana from after");
    await post(kept.id, "banana in a kept channel");
    expect(await guildName()).toBe("Renamed after the snapshot");
    expect(await searchCount("banana")).toBe(2);
    clock.advance(3_600_000);

    const restored = await restore(taken.id);
    expect(restored).toMatchObject({ id: taken.id, sessions_reconnected: 1 });

    // Read after the restore: had a cache kept the renamed guild, this would show it.
    expect(await guildName()).toBe(original);
    expect(await channelNames()).toContain("kept");
    expect(await channelNames()).not.toContain("later");
    expect((await botCall("GET", `/channels/${later.id}`)).status).toBe(404);
    const messages = (await botCall<APIMessage[]>("GET", `/channels/${kept.id}/messages`)).body;
    expect(messages.map((message) => message.content)).toEqual(["apple from before"]);
    expect(await searchCount("apple")).toBe(1);
    expect(await searchCount("banana")).toBe(0);

    // The clock is the snapshot's again, running on from there.
    const back = Date.now() - Date.parse(taken.clock.now);
    expect(back).toBeGreaterThanOrEqual(0);
    expect(back).toBeLessThan(60_000);
    expect(clock.frozen).toBe(false);

    // The session was told to reconnect; its RESUME finds no session, so it identifies anew.
    await session.client.waitFor((frame) => frame.op === GatewayOpcodes.Reconnect, "op 7 RECONNECT");
    session.client.terminate();
    const resuming = await GatewayClient.connect(`${info.gateway_url}?v=10&encoding=json`, false);
    await resuming.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
    resuming.send({ op: GatewayOpcodes.Resume, d: { token: info.bot_token, session_id: session.ready.session_id, seq: 1 } });
    expect((await resuming.waitFor((frame) => frame.op === GatewayOpcodes.InvalidSession, "op 9")).d).toBe(false);
    resuming.terminate();
    const again = await identified();
    expect(again.guild.name).toBe(original);
    expect(again.guild.channels.map((channel) => channel.name)).toContain("kept");
    expect(again.guild.channels.map((channel) => channel.name)).not.toContain("later");

    // New ids in the restored world clash with nothing, and the session hears them.
    const anew = await createChannel("later");
    expect((await again.client.dispatch("CHANNEL_CREATE")).d).toMatchObject({ id: anew.id, name: "later" });
    await post(anew.id, "cherry in the restored world");
    expect(await searchCount("cherry")).toBe(1);

    // The same snapshot again: what was made since goes too.
    expect((await restore(taken.id)).sessions_reconnected).toBe(1);
    expect(await channelNames()).not.toContain("later");
    expect(await searchCount("cherry")).toBe(0);
    again.client.terminate();
  });

  it("holds changes that arrive during a restore, then commits them in the restored world", async () => {
    const taken = await snapshot();
    const lastActive = async (id: string) => (await twin.runtime.db.user.findUniqueOrThrow({ where: { id } })).lastActiveAt?.getTime() ?? null;
    const before = await lastActive(info.user_id);
    const db = twin.runtime.db;
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let isWriting = false;
    // A change in flight when the restore is asked for: the restore waits for it, then undoes it.
    const inFlight = runChange({ db, actor: null }, async ({ tx }) => {
      isWriting = true;
      await gate;
      await tx.user.updateMany({ where: { id: info.user_id }, data: { lastActiveAt: new Date(1_000_000) } });
    });
    await until(() => Promise.resolve(isWriting));
    const restoring = twin.twin.snapshots.restore(twin, taken.id);
    // Asked for while the restore waits or runs: it commits after, in the restored world.
    const during = runChange({ db, actor: null }, ({ tx }) =>
      tx.user.updateMany({ where: { id: info.bot_user_id }, data: { lastActiveAt: new Date(2_000_000) } }),
    );
    openGate();
    await Promise.all([inFlight, restoring, during]);
    expect(await lastActive(info.user_id)).toBe(before);
    expect(await lastActive(info.bot_user_id)).toBe(2_000_000);
  });

  it("hears another process's changes after a restore, though the outbox numbers them again from the snapshot's", async () => {
    const taken = await snapshot();
    for (let i = 0; i < 5; i++) await createChannel(`numbered-${i}`);
    await restore(taken.id);
    expect(await guildName()).not.toBe("Renamed by another process");
    // Another process on the same database file (as the operator's CLI would be).
    const file = sqliteWriteAccess(twin.runtime.db)!.connection().name;
    const other = createRuntime({ db: createDb(`file:${file}`), redisUrl: null });
    try {
      await runChange({ db: other.db, actor: null }, async ({ tx, emit }) => {
        await tx.guild.update({ where: { id: info.guild_id }, data: { name: "Renamed by another process" } });
        await emit(GatewayDispatchEvents.GuildUpdate, await guildAsUpdated(tx, info.guild_id));
      });
    } finally {
      await other.close();
    }
    // The twin's cached guild goes once its outbox tail reads the event.
    await until(async () => (await guildName()) === "Renamed by another process");
  });

  it("restores a demo-sized world row for row, its search index too", async () => {
    const db = twin.runtime.db;
    await seedDemo(db);
    // Every table but those of gateway connections (a restore ends them all), and the search index's documents.
    const counts = async () => {
      const tables = await db.$queryRawUnsafe<{ name: string }[]>(
        `SELECT "name" FROM pragma_table_list WHERE "schema" = 'main' AND ("type" = 'table' OR "name" = 'MessageSearch_docsize')`,
      );
      const counted: Record<string, number> = {};
      for (const { name } of tables.filter((table) => !CONNECTIONS_HELD.has(table.name)))
        counted[name] = Number((await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT COUNT(*) AS "n" FROM "${name}"`))[0]!.n);
      return counted;
    };
    const busy = await createChannel("demo-busy");
    for (let i = 0; i < 20; i++) await post(busy.id, `elderberry number ${i}`);
    const taken = await snapshot("demo");
    const atSnapshot = await counts();
    expect(atSnapshot.User).toBeGreaterThan(300);
    expect(atSnapshot.MessageSearch_docsize).toBe(atSnapshot.Message);
    const kept = await createChannel("demo-after");
    await post(kept.id, "durian");
    expect((await botCall("PATCH", `/guilds/${info.guild_id}`, { name: "Changed" })).status).toBe(200);
    await restore(taken.id);
    expect(await counts()).toEqual(atSnapshot);
    expect(await db.gatewaySession.count()).toBe(0);
  });

  it("lists snapshots oldest first, deletes them, and answers 404 for one it does not have", async () => {
    const first = await snapshot("first");
    const second = await snapshot();
    expect(second.name).toBeNull();
    const listed = (await twinCall<SnapshotInfo[]>("GET", "/snapshots")).body.map((snap) => snap.id);
    expect(listed.indexOf(first.id)).toBeLessThan(listed.indexOf(second.id));

    expect((await twinCall("DELETE", `/snapshots/${first.id}`)).status).toBe(204);
    expect((await twinCall<SnapshotInfo[]>("GET", "/snapshots")).body.map((snap) => snap.id)).not.toContain(first.id);
    for (const [method, path] of [
      ["DELETE", `/snapshots/${first.id}`],
      ["POST", `/snapshots/${first.id}/restore`],
      ["POST", "/snapshots/nothing-like-it/restore"],
    ] as const) {
      const answer = await twinCall<{ code: number; message: string }>(method, path);
      expect(answer.status).toBe(404);
      expect(answer.body.message).toMatch(/^Unknown snapshot: this twin has no snapshot/);
    }
    expect((await twinCall("POST", "/snapshots", { name: "" })).status).toBe(400);
  });

  it("refuses snapshots beside Redis, saying why", () => {
    const withRedis = { ...twin.runtime, redis: {} as Redis };
    expect(() => twin.twin.snapshots.restore({ runtime: withRedis, gateway: twin.gateway }, "snap-1")).toThrow(/without Redis/);
  });
});

describe.runIf(testProvider() === "postgresql")("twin snapshots on PostgreSQL", () => {
  it("are refused, saying they need SQLite", async () => {
    const refused = await twinCall<{ message: string }>("POST", "/snapshots", { name: "before" });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/on SQLite: this one runs on PostgreSQL/);
  });
});
