import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { randomBytes } from "node:crypto";
import { GatewayDispatchEvents } from "discord-api-types/v10";
import { encode } from "next-auth/jwt";
import { createUser } from "~/server/applications/application.service.ts";
import { createDb, type Db } from "~/server/db/client.ts";
import { applyMigrations } from "~/server/db/migrate.ts";
import { createRuntime } from "~/server/runtime/create-runtime.ts";
import { percentile, seedWatchedGuild } from "./bench-guild.ts";
import { reportAims, ROOT, startServer, stopServer, type Server } from "./measure.ts";
import { openStreams, type SseClients } from "./sse-clients.ts";

// `npm run bench:dashboard [-- --streams 200 --changes 20]`: the production server
// (dist/server.mjs with the Next build, a fresh SQLite database) with `streams` dashboard live
// streams open (the tRPC subscription over server-sent events the guild pages open), each
// signed in as a different member; one REST change (PATCH a channel) and the time until every
// stream has its notice. Side by side with the floor: a bare node:http server writing the same
// message to as many streams.

const AIMS = { allWithinMs: 1000 };
const RATE_LIMIT_SCALE = "100000";
const RECEIPT_CEILING_MS = 10_000;
const WARMUP_CHANGES = 3;
const OUT_DIR = join(ROOT, "bench", "out");

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { streams: { type: "string", default: "200" }, changes: { type: "string", default: "20" } },
});
const streamCount = Number(flags.streams);
const changes = Number(flags.changes);

const packageJson = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { config: { node_flags: string } };
const NODE_FLAGS = packageJson.config.node_flags.split(/\s+/).filter(Boolean);

/** One guild (its owner a bot, whose token makes the REST changes) with a text channel and `count` members who can sign in. */
async function seed(db: Db, count: number) {
  const seeded = await seedWatchedGuild(db, { guild: "Dashboard Bench", channel: "watched" }, count, async (tx, index) => {
    const user = await createUser(tx, { username: `viewer_${index}` });
    return { userId: user.id, value: user.id };
  });
  return { guildId: seeded.guildId, channelId: seeded.channelId, botToken: seeded.ownerToken, viewerIds: seeded.members };
}

/** A signed-in dashboard session's cookie, as next-auth sets it after a sign-in (a JWT sealed with the server's secret). */
async function sessionCookie(secret: string, userId: string): Promise<string> {
  const token = await encode({ token: { sub: userId }, secret });
  return `next-auth.session-token=${token}`;
}

type Run = { latencies: number[]; allReceivedMs: number[]; received: number; expected: number; answeredMs: number[]; message: string };

/** Warm-up changes, then `changes` measured ones, each awaited at every stream before the next. */
async function runChanges(clients: SseClients, marker: string, trigger: (i: number, message: string) => Promise<void>): Promise<Run> {
  const run: Run = { latencies: [], allReceivedMs: [], received: 0, expected: 0, answeredMs: [], message: "" };
  for (let i = 0; i < WARMUP_CHANGES + changes; i++) {
    const measured = await clients.measure(marker, () => trigger(i, run.message), RECEIPT_CEILING_MS);
    run.message = measured.message || run.message;
    if (i < WARMUP_CHANGES) continue;
    run.latencies.push(...measured.latencies);
    run.received += measured.latencies.length;
    run.expected += streamCount;
    run.answeredMs.push(measured.answeredMs);
    run.allReceivedMs.push(measured.latencies.length === streamCount ? Math.max(...measured.latencies) : Infinity);
  }
  return run;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "guildhall-dashboard-bench-"));
  const url = `file:${join(dir, "bench.db")}`;
  const servers: Server[] = [];
  let clients: SseClients | undefined;
  try {
    if (!existsSync(join(ROOT, ".next", "BUILD_ID"))) {
      console.log("No Next build: building (npm run build)…");
      execFileSync("npm", ["run", "-s", "build"], { cwd: ROOT, stdio: "inherit" });
    } else execFileSync("npm", ["run", "-s", "build:server"], { cwd: ROOT, stdio: "inherit" });
    await applyMigrations(url);
    // Seeded through the services, in a runtime of its own (they deliver their events through it).
    const seeding = createRuntime({ db: createDb(url) });
    const seeded = await seed(seeding.db, streamCount);
    await seeding.close();
    console.log(
      `Guildhall dashboard stream bench: ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(2)}; server: node ${NODE_FLAGS.join(" ")} dist/server.mjs with the Next build.`,
    );

    const secret = randomBytes(32).toString("base64url");
    const server = await startServer("guildhall", [...NODE_FLAGS, "dist/server.mjs"], { DATABASE_URL: url, NEXTAUTH_SECRET: secret, RATE_LIMIT_SCALE });
    servers.push(server);
    const cookies = await Promise.all(seeded.viewerIds.map((id) => sessionCookie(secret, id)));
    const input = encodeURIComponent(JSON.stringify({ guildId: seeded.guildId }));
    console.log(`\nOpening ${streamCount} live streams, one per signed-in member…`);
    clients = await openStreams(`http://127.0.0.1:${server.port}/api/trpc/live.guild?input=${input}`, (i) => ({ cookie: cookies[i]! }), streamCount);
    const guildhallRun = await runChanges(clients, GatewayDispatchEvents.ChannelUpdate, async (i) => {
      const answer = await fetch(`http://127.0.0.1:${server.port}/api/v10/channels/${seeded.channelId}`, {
        method: "PATCH",
        headers: { authorization: `Bot ${seeded.botToken}`, "content-type": "application/json" },
        body: JSON.stringify({ topic: `Bench change ${i}` }),
      });
      if (!answer.ok) throw new Error(`PATCH /channels answered ${answer.status}: ${await answer.text()}`);
    });
    clients.close();
    await stopServer(server);

    const floor = await startServer("floor", ["--import", "tsx", "bench/sse-floor-server.ts"], {});
    servers.push(floor);
    clients = await openStreams(`http://127.0.0.1:${floor.port}/stream`, () => ({}), streamCount);
    const floorRun = await runChanges(clients, GatewayDispatchEvents.ChannelUpdate, async () => {
      const answer = await fetch(`http://127.0.0.1:${floor.port}/broadcast`, { method: "POST", body: guildhallRun.message });
      if (!answer.ok) throw new Error(`the floor answered ${answer.status}`);
    });
    clients.close();
    await stopServer(floor);

    const ms = (value: number) => value.toFixed(1);
    const rows = [
      ["receipt p50 ms (REST call → notice)", ms(percentile(guildhallRun.latencies, 50)), ms(percentile(floorRun.latencies, 50))],
      ["receipt p99 ms", ms(percentile(guildhallRun.latencies, 99)), ms(percentile(floorRun.latencies, 99))],
      ["receipt max ms", ms(Math.max(...guildhallRun.latencies)), ms(Math.max(...floorRun.latencies))],
      ["all streams have it, p50 ms", ms(percentile(guildhallRun.allReceivedMs, 50)), ms(percentile(floorRun.allReceivedMs, 50))],
      ["all streams have it, max ms", ms(Math.max(...guildhallRun.allReceivedMs)), ms(Math.max(...floorRun.allReceivedMs))],
      ["received / expected", `${guildhallRun.received} / ${guildhallRun.expected}`, `${floorRun.received} / ${floorRun.expected}`],
      ["REST answer p50 ms (PATCH / POST)", ms(percentile(guildhallRun.answeredMs, 50)), ms(percentile(floorRun.answeredMs, 50))],
    ];
    console.log(
      `\n${changes} changes (after ${WARMUP_CHANGES} warm-up) to ${streamCount} dashboard streams, message of ${Buffer.byteLength(guildhallRun.message)} bytes:`,
    );
    const widths = [0, 1, 2].map((i) => Math.max(...[["measure", "guildhall", "floor"], ...rows].map((row) => row[i]!.length)));
    const format = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
    console.log(format(["measure", "guildhall", "floor"]));
    console.log(widths.map((w) => "-".repeat(w)).join("  "));
    for (const row of rows) console.log(format(row));

    const slowest = Math.max(...guildhallRun.allReceivedMs);
    const aims = [
      {
        aim: `every one of ${streamCount} streams has each change within ${AIMS.allWithinMs} ms`,
        value: Number.isFinite(slowest) ? `${ms(slowest)} ms at worst` : `${guildhallRun.expected - guildhallRun.received} receipts missing`,
        met: slowest <= AIMS.allWithinMs,
      },
    ];
    reportAims(aims);

    mkdirSync(OUT_DIR, { recursive: true });
    const summary = (run: Run) => ({
      p50Ms: percentile(run.latencies, 50),
      p99Ms: percentile(run.latencies, 99),
      maxMs: Math.max(...run.latencies),
      allReceivedMaxMs: Math.max(...run.allReceivedMs),
      received: run.received,
      expected: run.expected,
    });
    const report = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, loadAverage: loadavg()[0] },
      config: { streams: streamCount, changes, warmupChanges: WARMUP_CHANGES, nodeFlags: NODE_FLAGS },
      guildhall: summary(guildhallRun),
      floor: summary(floorRun),
      aims,
    };
    const file = join(OUT_DIR, `dashboard-stream-bench-${report.date.replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nWrote ${file}`);
  } finally {
    clients?.close();
    for (const server of servers) await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
