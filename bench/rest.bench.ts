import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createDb } from "~/server/db/client.ts";
import { applyMigrations } from "~/server/db/migrate.ts";
import { createBootstrapCredentials } from "~/server/seed/bootstrap.ts";

// `npm run bench [-- --duration 10 --only get|patch --profile]`: the production server (server.ts, REST
// only, so no Next build is needed) on a fresh SQLite database, against a bare node:http
// "floor" that does one indexed read per request. The aim: GET /guilds/{id} at a tenth
// of the floor's throughput or better, without errors.

type AutocannonRequest = { method?: string; body?: string; headers?: Record<string, string> };
type AutocannonResult = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
};
type Autocannon = (options: { url: string; connections: number; duration: number; headers?: Record<string, string>; requests?: AutocannonRequest[] }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT_DIR = join(ROOT, "bench", "out");
const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
// High enough that the limiter never throttles the bench, while every request still goes through it.
const RATE_LIMIT_SCALE = "100000";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { duration: { type: "string", default: "10" }, profile: { type: "boolean", default: false }, only: { type: "string" } },
});
const duration = Number(flags.duration);
/** `--only get` or `--only patch` measures that request alone (to profile one path); the floor always runs. */
const only = flags.only?.toLowerCase();
if (only !== undefined && only !== "get" && only !== "patch") throw new Error("--only takes get or patch");

type Server = { name: string; process: ChildProcess; port: number };
type Measurement = { result: AutocannonResult; cpuMicrosPerRequest: number | null };
type Row = Measurement & { server: string; request: string; peakRssMb: number | null };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Starts a TypeScript entry in one node process (so its pid is the server's, for RSS). */
async function startServer(name: string, entry: string, env: Record<string, string>, nodeFlags: string[] = []): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", entry], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not start listening within 60 s`)), 60_000);
    child.once("exit", (code) => reject(new Error(`${name} exited with code ${code} before listening`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening")) resolve();
    });
  }).finally(() => clearTimeout(timer));
  child.removeAllListeners("exit");
  child.stdout!.resume();
  return { name, process: child, port };
}

/** The process's peak resident set size so far (VmHWM), in MB; null off Linux. */
function peakRssMb(pid: number | undefined): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** CPU time (user + system) the process has used, in µs; null off Linux. */
function cpuMicros(pid: number | undefined): number | null {
  try {
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND) * 1e6;
  } catch {
    return null;
  }
}

async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  server.process.kill("SIGTERM");
  await exited;
}

/**
 * A warm-up, then the measured run. CPU time per request is the server's own, so it stays
 * comparable when other work on the machine slows everything down.
 */
async function measure(server: Server, path: string, headers: Record<string, string>, requests?: AutocannonRequest[]): Promise<Measurement> {
  const url = `http://127.0.0.1:${server.port}${path}`;
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_SECONDS, headers, requests });
  const cpuBefore = cpuMicros(server.process.pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers, requests });
  const cpuAfter = cpuMicros(server.process.pid);
  const cpuMicrosPerRequest = cpuBefore === null || cpuAfter === null || result.requests.total === 0 ? null : (cpuAfter - cpuBefore) / result.requests.total;
  return { result, cpuMicrosPerRequest };
}

function printTable(rows: Row[]): void {
  const header = ["server", "request", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "CPU µs/req", "peak RSS MB"];
  const lines = rows.map((row) => [
    row.server,
    row.request,
    row.result.requests.average.toFixed(0),
    row.result.latency.p50.toFixed(1),
    row.result.latency.p99.toFixed(1),
    String(row.result.errors + row.result.timeouts),
    String(row.result.non2xx),
    row.cpuMicrosPerRequest === null ? "n/a" : row.cpuMicrosPerRequest.toFixed(0),
    row.peakRssMb === null ? "n/a" : row.peakRssMb.toFixed(0),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const format = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  console.log(format(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const line of lines) console.log(format(line));
}

/** The functions with the most self time in a V8 CPU profile. */
function summarizeProfile(file: string, top = 20): void {
  type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number };
  const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: Node[]; samples: number[] };
  const total = profile.samples.length;
  const byFrame = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(`file://${ROOT}`, "").replace(/^.*node_modules\//, "~nm/")}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    byFrame.set(key, (byFrame.get(key) ?? 0) + (node.hitCount ?? 0));
  }
  console.log(`\nCPU profile ${file} (${total} samples); self time, top ${top}:`);
  for (const [frame, hits] of [...byFrame].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${frame}`);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "guildhall-bench-"));
  const dbFile = join(dir, "bench.db");
  const url = `file:${dbFile}`;
  const servers: Server[] = [];
  try {
    await applyMigrations(url);
    const db = createDb(url);
    const credentials = await createBootstrapCredentials(db);
    await db.$disconnect();
    const guildPath = `/api/v10/guilds/${credentials.guild_id}`;
    const auth = { authorization: `Bot ${credentials.bot_token}` };

    const profileFlags: string[] = [];
    if (flags.profile) {
      mkdirSync(OUT_DIR, { recursive: true });
      // A profile is written only on a normal exit, so SIGTERM must exit normally.
      profileFlags.push("--cpu-prof", `--cpu-prof-dir=${OUT_DIR}`, "--import", 'data:text/javascript,process.on("SIGTERM",()=>process.exit(0))');
    }
    const profilesBefore = new Set(flags.profile ? readdirSync(OUT_DIR) : []);

    console.log(`Guildhall REST bench: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${duration} s per run; ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(2)}.`);
    console.log(`server.ts runs with GUILDHALL_REST_ONLY=1 (no Next) and RATE_LIMIT_SCALE=${RATE_LIMIT_SCALE}: the rate limiter runs on every request but does not throttle.`);
    if (flags.profile) console.log(`CPU profiling the server into ${OUT_DIR}: figures are lower than without --profile.`);

    const server = await startServer("guildhall", "server.ts", { DATABASE_URL: url, GUILDHALL_REST_ONLY: "1", RATE_LIMIT_SCALE }, profileFlags);
    servers.push(server);
    const probe = await fetch(`http://127.0.0.1:${server.port}${guildPath}`, { headers: auth });
    if (probe.status !== 200) throw new Error(`GET ${guildPath} answered ${probe.status}: ${await probe.text()}`);
    const bodyFile = join(dir, "guild.json");
    writeFileSync(bodyFile, Buffer.from(await probe.arrayBuffer()));

    // Both run side by side, each measured alone and one right after the other, so that
    // other work on the machine weighs on both alike.
    const floor = await startServer("floor", "bench/floor-server.ts", { DATABASE_FILE: dbFile, BODY_FILE: bodyFile });
    servers.push(floor);
    const floorMeasurement = await measure(floor, guildPath, auth);
    const floorRow: Row = { server: "floor", request: "GET /guilds/{id}", ...floorMeasurement, peakRssMb: peakRssMb(floor.process.pid) };

    const rows: Row[] = [];
    if (only !== "patch") rows.push({ server: "guildhall", request: "GET /guilds/{id}", ...(await measure(server, guildPath, auth)), peakRssMb: null });
    if (only !== "get") {
      const names = ["Bench Guild A", "Bench Guild B"].map((name) => JSON.stringify({ name }));
      const measurement = await measure(server, guildPath, { ...auth, "content-type": "application/json" }, names.map((body) => ({ method: "PATCH", body })));
      rows.push({ server: "guildhall", request: "PATCH /guilds/{id}", ...measurement, peakRssMb: null });
    }
    rows.at(-1)!.peakRssMb = peakRssMb(server.process.pid);
    rows.push(floorRow);
    await stopServer(server);
    await stopServer(floor);

    console.log("");
    printTable(rows);
    const clean = rows.every(({ result }) => result.errors + result.timeouts + result.non2xx === 0);
    const get = rows.find((row) => row.server === "guildhall" && row.request.startsWith("GET"));
    if (get) {
      const ratio = get.result.requests.average / floorMeasurement.result.requests.average;
      const met = ratio >= 0.1 && clean;
      console.log(`\nGET throughput is ${(ratio * 100).toFixed(1)}% of the floor's (aim: at least 10%, no errors): ${met ? "met" : "NOT met"}.`);
      if (!met) process.exitCode = 1;
    } else if (!clean) process.exitCode = 1;

    if (flags.profile) {
      // Node writes one profile per thread; the main thread's is the first (…0.001…), the others are loader threads.
      const written = readdirSync(OUT_DIR).filter((f) => f.endsWith(".cpuprofile") && !profilesBefore.has(f)).sort();
      const main = written.find((f) => f.endsWith(".0.001.cpuprofile")) ?? written[0];
      if (main) summarizeProfile(join(OUT_DIR, main));
    }
  } finally {
    for (const server of servers) if (server.process.exitCode === null && server.process.signalCode === null) server.process.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
