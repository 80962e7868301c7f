import { execFileSync, fork, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { GatewayDispatchEvents, GatewayIntentBits } from "discord-api-types/v10";
import { createApplication } from "~/server/applications/application.service.ts";
import { createDb, type Db } from "~/server/db/client.ts";
import { createRuntime } from "~/server/runtime/create-runtime.ts";
import { applyMigrations } from "~/server/db/migrate.ts";
import type { ClientCommand, ClientReply } from "./gateway-protocol.ts";
import { percentile, seedWatchedGuild } from "./bench-guild.ts";
import { reportAims, residentMb, ROOT, startServer, stopServer, type Server } from "./measure.ts";
import { CHUNK_GUILD_MEMBERS, openChunkSession, seedChunkGuild, timeChunkRuns } from "./member-chunks.ts";

// `npm run bench:gateway [-- --sessions 1000 --changes 20 --idle-sessions 5000 --idle-seconds 60]`:
// the production server (dist/server.mjs, REST only, a fresh SQLite database) with real gateway
// sessions held by a separate client process, side by side with a bare `ws` server that
// broadcasts the same frame to as many sockets (the floor).
// - Fan-out: one REST change (PATCH a channel) reaching every identified session of one guild,
//   each session its own bot; latency from the REST call to receipt at each session.
// - Idle: many identified sessions heartbeating on a short interval for a minute; the server's
//   RSS per session, and how many sessions are still open.
// - Member chunks (bench/member-chunks.ts): one session asks for every member of a guild of
//   10,000 (op 8); time to the last GUILD_MEMBERS_CHUNK, beside a bare `ws` server sending the
//   same members read in one go (bench/chunk-floor-server.ts).
// GATEWAY_BENCH=chunks runs the member-chunk part alone.

const AIMS = { fanoutP99OverFloor: 2, idleKbPerSession: 30, dropped: 0, lastChunkMs: 2000 };
const ONLY_CHUNKS = process.env.GATEWAY_BENCH === "chunks";
const CHUNK_WARMUP_RUNS = 1;
const CHUNK_RUNS = 5;
const RATE_LIMIT_SCALE = "100000";
/** Heartbeats during the idle minute: short enough that every session sends several. */
const HEARTBEAT_INTERVAL_MS = 10_000;
/** Sockets opened at once while connecting. */
const CONNECT_CONCURRENCY = 50;
/** How long one change may take to reach every session before the missing ones count as dropped. */
const RECEIPT_CEILING_MS = 10_000;
const WARMUP_CHANGES = 3;
const OUT_DIR = join(ROOT, "bench", "out");

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    sessions: { type: "string", default: "1000" },
    changes: { type: "string", default: "20" },
    "idle-sessions": { type: "string", default: "5000" },
    "idle-seconds": { type: "string", default: "60" },
  },
});
const sessions = Number(flags.sessions);
const changes = Number(flags.changes);
const idleSessions = Number(flags["idle-sessions"]);
const idleSeconds = Number(flags["idle-seconds"]);

const packageJson = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { config: { node_flags: string } };
const NODE_FLAGS = packageJson.config.node_flags.split(/\s+/).filter(Boolean);

/** The open-file limit this process and its children have (each socket is one descriptor). */
function openFileLimit(): number {
  const limit = execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim();
  return limit === "unlimited" ? Infinity : Number(limit);
}

/** One guild with a text channel, and `count` bot applications each a member of it. */
async function seed(db: Db, count: number) {
  const seeded = await seedWatchedGuild(db, { guild: "Gateway Bench", channel: "fanout" }, count, async (tx, index, ownerId) => {
    const { botUser, botToken } = await createApplication(tx, { name: `Bench Bot ${index}`, ownerId });
    return { userId: botUser.id, value: botToken };
  });
  return { ...seeded, botTokens: seeded.members };
}

/** The client process, and a way to send it one command and await its reply. */
async function startClients(): Promise<{ child: ChildProcess; ask: (command: ClientCommand) => Promise<ClientReply> }> {
  const child = fork(join(ROOT, "bench", "gateway-clients.ts"), [], {
    cwd: ROOT,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = () =>
    new Promise<ClientReply>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the client process exited with ${code}`));
      child.once("exit", onExit);
      child.once("message", (message: ClientReply) => {
        child.off("exit", onExit);
        if (message.kind === "error") reject(new Error(message.message));
        else resolve(message);
      });
    });
  await next();
  return {
    child,
    ask: (command) => {
      const reply = next();
      child.send(command);
      return reply;
    },
  };
}

function expectReply<K extends ClientReply["kind"]>(reply: ClientReply, kind: K): Extract<ClientReply, { kind: K }> {
  if (reply.kind !== kind) throw new Error(`expected ${kind} from the client process, got ${reply.kind}`);
  return reply as Extract<ClientReply, { kind: K }>;
}

type FanoutRun = { latencies: number[]; received: number; expected: number; answeredMs: number[]; frame: string };

/** Warm-up changes, then `changes` measured ones, each awaited at every socket before the next. */
async function runFanout(
  ask: (command: ClientCommand) => Promise<ClientReply>,
  request: (i: number) => Extract<ClientCommand, { kind: "trigger" }>["request"],
): Promise<FanoutRun> {
  const run: FanoutRun = { latencies: [], received: 0, expected: 0, answeredMs: [], frame: "" };
  for (let i = 0; i < WARMUP_CHANGES + changes; i++) {
    const measured = expectReply(
      await ask({ kind: "trigger", request: request(i), dispatchType: GatewayDispatchEvents.ChannelUpdate, ceilingMs: RECEIPT_CEILING_MS }),
      "measured",
    );
    run.frame = measured.frame;
    if (i < WARMUP_CHANGES) continue;
    run.latencies.push(...measured.latencies);
    run.received += measured.latencies.length;
    run.expected += measured.expected;
    run.answeredMs.push(measured.answeredMs);
  }
  return run;
}

async function connectAll(ask: (command: ClientCommand) => Promise<ClientReply>, url: string, tokens: (string | null)[]): Promise<void> {
  const connected = expectReply(await ask({ kind: "connect", url, tokens, intents: GatewayIntentBits.Guilds, concurrency: CONNECT_CONCURRENCY }), "connected");
  if (connected.failed > 0) throw new Error(`${connected.failed} of ${tokens.length} sockets failed to connect to ${url}: ${connected.failures.join("; ")}`);
}

type Aim = { aim: string; value: string; met: boolean };
type PartResult = { aims: Aim[]; report: Record<string, unknown> };

/** Fan-out and idle sessions, with the client process. */
async function benchFanoutAndIdle(seeded: Awaited<ReturnType<typeof seed>>, startGuildhall: () => Promise<Server>, servers: Server[]): Promise<PartResult> {
  let clients: ChildProcess | undefined;
  try {
    const started = await startClients();
    clients = started.child;
    const { ask } = started;

    // Fan-out: Guildhall, then the floor with the frame Guildhall sent.
    let server = await startGuildhall();
    const gatewayUrl = `ws://127.0.0.1:${server.port}/gateway?v=10&encoding=json`;
    console.log(`\nFan-out: connecting ${sessions} identified sessions…`);
    await connectAll(ask, gatewayUrl, seeded.botTokens.slice(0, sessions));
    const guildhallRun = await runFanout(ask, (i) => ({
      url: `http://127.0.0.1:${server.port}/api/v10/channels/${seeded.channelId}`,
      method: "PATCH",
      headers: { authorization: `Bot ${seeded.ownerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ topic: `Bench change ${i}` }),
    }));
    expectReply(await ask({ kind: "close" }), "closed");
    await stopServer(server);

    const floor = await startServer("floor", ["--import", "tsx", "bench/gateway-floor-server.ts"], {});
    servers.push(floor);
    await connectAll(
      ask,
      `ws://127.0.0.1:${floor.port}/`,
      Array.from({ length: sessions }, () => null),
    );
    const floorRun = await runFanout(ask, () => ({ url: `http://127.0.0.1:${floor.port}/broadcast`, method: "POST", headers: {}, body: guildhallRun.frame }));
    expectReply(await ask({ kind: "close" }), "closed");
    await stopServer(floor);

    // Idle: a fresh server, so its RSS before holds no earlier sessions.
    server = await startGuildhall();
    const probe = await fetch(`http://127.0.0.1:${server.port}/api/v10/gateway/bot`, { headers: { authorization: `Bot ${seeded.ownerToken}` } });
    if (!probe.ok) throw new Error(`GET /gateway/bot answered ${probe.status}: ${await probe.text()}`);
    const rssBefore = residentMb(server.process.pid)!;
    console.log(`Idle: connecting ${idleSessions} identified sessions (heartbeat every ${HEARTBEAT_INTERVAL_MS / 1000} s)…`);
    const connectStart = performance.now();
    await connectAll(ask, `ws://127.0.0.1:${server.port}/gateway?v=10&encoding=json`, seeded.botTokens.slice(0, idleSessions));
    const connectSeconds = (performance.now() - connectStart) / 1000;
    const rssConnected = residentMb(server.process.pid)!;
    console.log(`Connected in ${connectSeconds.toFixed(0)} s; idling ${idleSeconds} s…`);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idle = expectReply(await ask({ kind: "status" }), "status");
    const rssAfter = residentMb(server.process.pid)!;
    expectReply(await ask({ kind: "close" }), "closed");
    await stopServer(server);

    const kbPerSession = ((rssAfter - rssBefore) * 1024) / idleSessions;
    const fanoutDropped = guildhallRun.expected - guildhallRun.received;
    const idleDropped = idleSessions - idle.open;
    const ms = (value: number) => value.toFixed(1);
    const rows = [
      ["fan-out p50 ms (REST call → receipt)", ms(percentile(guildhallRun.latencies, 50)), ms(percentile(floorRun.latencies, 50))],
      ["fan-out p99 ms", ms(percentile(guildhallRun.latencies, 99)), ms(percentile(floorRun.latencies, 99))],
      ["fan-out max ms", ms(Math.max(...guildhallRun.latencies)), ms(Math.max(...floorRun.latencies))],
      ["fan-out received / expected", `${guildhallRun.received} / ${guildhallRun.expected}`, `${floorRun.received} / ${floorRun.expected}`],
      ["REST answer p50 ms (PATCH / POST)", ms(percentile(guildhallRun.answeredMs, 50)), ms(percentile(floorRun.answeredMs, 50))],
      [`idle sessions open after ${idleSeconds} s`, `${idle.open} / ${idleSessions}`, "-"],
      ["idle heartbeats sent / acked", `${idle.heartbeats} / ${idle.acks}`, "-"],
      ["idle server RSS MB before / connected / after", `${rssBefore.toFixed(0)} / ${rssConnected.toFixed(0)} / ${rssAfter.toFixed(0)}`, "-"],
      ["idle RSS KB per session", kbPerSession.toFixed(1), "-"],
    ];
    console.log(
      `\n${changes} changes (after ${WARMUP_CHANGES} warm-up) fanned out to ${sessions} sessions, frame of ${Buffer.byteLength(guildhallRun.frame)} bytes:`,
    );
    printRows(rows);

    const fanoutP99 = percentile(guildhallRun.latencies, 99);
    const floorP99 = percentile(floorRun.latencies, 99);
    const aims = [
      {
        aim: `fan-out p99 within ${AIMS.fanoutP99OverFloor}× the floor's`,
        value: `${(fanoutP99 / floorP99).toFixed(1)}× (${ms(fanoutP99)} vs ${ms(floorP99)} ms)`,
        met: fanoutP99 <= AIMS.fanoutP99OverFloor * floorP99,
      },
      {
        aim: `at most ${AIMS.idleKbPerSession} KB of RSS per idle session`,
        value: `${kbPerSession.toFixed(1)} KB`,
        met: kbPerSession <= AIMS.idleKbPerSession,
      },
      {
        aim: "no session dropped",
        value: `${fanoutDropped} fan-out receipts missing, ${idleDropped} idle sessions closed ${JSON.stringify(idle.closeCodes)}`,
        met: fanoutDropped === AIMS.dropped && idleDropped === AIMS.dropped,
      },
    ];
    return {
      aims,
      report: {
        fanout: {
          guildhall: {
            p50Ms: percentile(guildhallRun.latencies, 50),
            p99Ms: fanoutP99,
            maxMs: Math.max(...guildhallRun.latencies),
            received: guildhallRun.received,
            expected: guildhallRun.expected,
          },
          floor: {
            p50Ms: percentile(floorRun.latencies, 50),
            p99Ms: floorP99,
            maxMs: Math.max(...floorRun.latencies),
            received: floorRun.received,
            expected: floorRun.expected,
          },
        },
        idle: {
          open: idle.open,
          closeCodes: idle.closeCodes,
          heartbeats: idle.heartbeats,
          acks: idle.acks,
          rssBeforeMb: rssBefore,
          rssConnectedMb: rssConnected,
          rssAfterMb: rssAfter,
          kbPerSession,
        },
      },
    };
  } finally {
    clients?.kill();
  }
}

/** Member chunks: Guildhall's answer to op 8 for every member, then the floor's, one session each. */
async function benchMemberChunks(
  chunkGuild: Awaited<ReturnType<typeof seedChunkGuild>>,
  url: string,
  startGuildhall: () => Promise<Server>,
  servers: Server[],
): Promise<PartResult> {
  console.log(`\nMember chunks: ${CHUNK_WARMUP_RUNS} warm-up and ${CHUNK_RUNS} measured requests for all ${CHUNK_GUILD_MEMBERS} members…`);
  const server = await startGuildhall();
  const session = await openChunkSession(`ws://127.0.0.1:${server.port}/gateway?v=10&encoding=json`, chunkGuild.botToken);
  const guildhall = await timeChunkRuns(session, chunkGuild.guildId, CHUNK_WARMUP_RUNS, CHUNK_RUNS);
  session.close();
  await stopServer(server);
  const floorServer = await startServer("chunk floor", ["--import", "tsx", "bench/chunk-floor-server.ts"], { DATABASE_URL: url, GUILD_ID: chunkGuild.guildId });
  servers.push(floorServer);
  const floorSession = await openChunkSession(`ws://127.0.0.1:${floorServer.port}/`, null);
  const floor = await timeChunkRuns(floorSession, chunkGuild.guildId, CHUNK_WARMUP_RUNS, CHUNK_RUNS);
  floorSession.close();
  await stopServer(floorServer);

  const ms = (values: { ms: number }[]) => values.map((run) => run.ms);
  const figures = (runs: typeof guildhall) => ({
    p50Ms: percentile(ms(runs), 50),
    maxMs: Math.max(...ms(runs)),
    runsMs: ms(runs),
    chunks: runs[0]!.chunks,
    bytes: runs[0]!.bytes,
  });
  const result = { guildhall: figures(guildhall), floor: figures(floor) };
  const rows = [
    ["op 8 → last chunk p50 ms", result.guildhall.p50Ms.toFixed(1), result.floor.p50Ms.toFixed(1)],
    ["op 8 → last chunk max ms", result.guildhall.maxMs.toFixed(1), result.floor.maxMs.toFixed(1)],
    ["chunks / bytes per answer", `${result.guildhall.chunks} / ${result.guildhall.bytes}`, `${result.floor.chunks} / ${result.floor.bytes}`],
  ];
  printRows(rows);
  return {
    aims: [
      {
        aim: `every member of ${CHUNK_GUILD_MEMBERS} by the last chunk within ${AIMS.lastChunkMs} ms`,
        value: `max ${result.guildhall.maxMs.toFixed(0)} ms, p50 ${result.guildhall.p50Ms.toFixed(0)} ms (floor p50 ${result.floor.p50Ms.toFixed(0)} ms)`,
        met: result.guildhall.maxMs <= AIMS.lastChunkMs,
      },
    ],
    report: { memberChunks: { members: CHUNK_GUILD_MEMBERS, warmupRuns: CHUNK_WARMUP_RUNS, ...result } },
  };
}

/** A table of measure, Guildhall and floor columns. */
function printRows(rows: string[][]): void {
  const widths = [0, 1, 2].map((i) => Math.max(...[["measure", "guildhall", "floor"], ...rows].map((row) => row[i]!.length)));
  const format = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  console.log(format(["measure", "guildhall", "floor"]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(format(row));
}

async function main(): Promise<void> {
  const limit = openFileLimit();
  if (!ONLY_CHUNKS && limit < idleSessions + 1000)
    throw new Error(`ulimit -n is ${limit}: the client process needs one descriptor per session (${idleSessions}) and some more`);
  const dir = mkdtempSync(join(tmpdir(), "guildhall-gateway-bench-"));
  const url = `file:${join(dir, "bench.db")}`;
  const servers: Server[] = [];
  try {
    console.log("Building the server (npm run build:server) and seeding a fresh database…");
    execFileSync("npm", ["run", "-s", "build:server"], { cwd: ROOT, stdio: "inherit" });
    await applyMigrations(url);
    // Seeding goes through the services, which deliver their events through a runtime.
    const seeding = createRuntime({ db: createDb(url), redisUrl: null });
    const seedStart = performance.now();
    const chunkGuild = await seedChunkGuild(seeding.db);
    const seeded = ONLY_CHUNKS ? null : await seed(seeding.db, Math.max(sessions, idleSessions));
    await seeding.close();
    console.log(
      `Seeded a guild of ${CHUNK_GUILD_MEMBERS} members${seeded ? ` and one with ${seeded.botTokens.length} bot applications` : ""} in ${((performance.now() - seedStart) / 1000).toFixed(0)} s.`,
    );
    console.log(
      `Guildhall gateway bench: ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(2)}, ulimit -n ${limit}; server: node ${NODE_FLAGS.join(" ")} dist/server.mjs, REST only.`,
    );

    const serverEnv = {
      DATABASE_URL: url,
      GUILDHALL_REST_ONLY: "1",
      RATE_LIMIT_SCALE,
      GATEWAY_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_INTERVAL_MS),
      GATEWAY_SESSION_START_LIMIT: "1000000",
      // Every bench client connects from loopback, many at once.
      GATEWAY_UNIDENTIFIED_PER_ADDRESS: "1000000",
    };
    const startGuildhall = async () => {
      const server = await startServer("guildhall", [...NODE_FLAGS, "dist/server.mjs"], serverEnv);
      servers.push(server);
      return server;
    };
    const parts = [
      ...(seeded ? [await benchFanoutAndIdle(seeded, startGuildhall, servers)] : []),
      await benchMemberChunks(chunkGuild, url, startGuildhall, servers),
    ];
    const aims = parts.flatMap((part) => part.aims);
    reportAims(aims);

    mkdirSync(OUT_DIR, { recursive: true });
    const date = new Date().toISOString();
    const report = {
      date,
      machine: { cpus: cpus().length, loadAverage: loadavg()[0], openFileLimit: limit },
      config: {
        parts: ONLY_CHUNKS ? ["chunks"] : ["fanout", "idle", "chunks"],
        sessions,
        changes,
        warmupChanges: WARMUP_CHANGES,
        idleSessions,
        idleSeconds,
        heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
        chunkRuns: CHUNK_RUNS,
        nodeFlags: NODE_FLAGS,
      },
      ...(Object.assign({}, ...parts.map((part) => part.report)) as Record<string, unknown>),
      aims,
    };
    const file = join(OUT_DIR, `gateway-bench-${date.replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nWrote ${file}`);
  } finally {
    for (const server of servers) await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
