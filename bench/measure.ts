import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

// What the REST bench measures with: servers as child processes, autocannon, /proc readings.

export type AutocannonRequest = {
  method?: string;
  path?: string;
  body?: string;
  headers?: Record<string, string>;
  setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
};
export type AutocannonResult = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
};
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;

export type Server = { name: string; process: ChildProcess; port: number };
export type Measurement = { result: AutocannonResult; cpuMicrosPerRequest: number | null; peakRssMb: number | null };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Starts `node <args>` (one process, so its pid is the server's for CPU and RSS) and waits for it to listen. */
export async function startServer(name: string, args: string[], env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not start listening within 60 s`)), 60_000);
    child.once("exit", (code) => reject(new Error(`${name} exited with code ${code} before listening`)));
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening")) resolve();
    });
  }).finally(() => clearTimeout(timer));
  child.removeAllListeners("exit");
  child.stdout.resume();
  return { name, process: child, port };
}

export async function stopServer(server: Server): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  server.process.kill("SIGTERM");
  await exited;
}

/** A memory figure of the process from /proc (VmHWM: peak resident set, VmRSS: resident now), in MB; null off Linux. */
function procStatusMb(pid: number | undefined, field: "VmHWM" | "VmRSS"): number | null {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** The process's peak resident set size so far, in MB; null off Linux. */
export function peakRssMb(pid: number | undefined): number | null {
  return procStatusMb(pid, "VmHWM");
}

/** The process's resident set size now, in MB; null off Linux. */
export function residentMb(pid: number | undefined): number | null {
  return procStatusMb(pid, "VmRSS");
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

/**
 * A warm-up, then the measured run. CPU time per request is the server's own, so it stays
 * comparable when other work on the machine slows everything down.
 */
export async function measure(
  server: Server,
  seconds: number,
  options: { path: string; headers: Record<string, string>; requests?: AutocannonRequest[] },
): Promise<Measurement> {
  const run = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${server.port}${options.path}`,
      connections: CONNECTIONS,
      duration,
      headers: options.headers,
      requests: options.requests,
    });
  await run(WARMUP_SECONDS);
  const cpuBefore = cpuMicros(server.process.pid);
  const result = await run(seconds);
  const cpuAfter = cpuMicros(server.process.pid);
  const cpuMicrosPerRequest = cpuBefore === null || cpuAfter === null || result.requests.total === 0 ? null : (cpuAfter - cpuBefore) / result.requests.total;
  return { result, cpuMicrosPerRequest, peakRssMb: peakRssMb(server.process.pid) };
}

/** A measured request; `floorRatio` is its req/s over its floor's, where it has one. */
export type Row = Measurement & { server: string; request: string; floorRatio?: number };

export function printTable(rows: Row[]): void {
  const header = ["server", "request", "req/s", "floor ratio", "p50 ms", "p99 ms", "errors", "non-2xx", "CPU µs/req", "peak RSS MB"];
  const lines = rows.map((row) => [
    row.server,
    row.request,
    row.result.requests.average.toFixed(0),
    row.floorRatio === undefined ? "" : row.floorRatio.toFixed(3),
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
export function summarizeProfile(file: string, top = 20): void {
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

/** Prints each aim as met or not; a missed aim fails the bench's exit code. */
export function reportAims(aims: readonly { aim: string; value: string; met: boolean }[]): void {
  console.log("");
  for (const { aim, value, met } of aims) console.log(`${met ? "met    " : "NOT met"}  ${aim}: ${value}`);
  if (aims.some((a) => !a.met)) process.exitCode = 1;
}
