import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { CONNECTIONS, type Row } from "./measure.ts";

// What the REST bench aims at, and the JSON report it leaves in bench/out.

const AIMS = { readShareOfFloor: 0.2, writeShareOfFloor: 0.4, writeP99Ms: 20, lobbyMessagePerSecond: 2000, peakRssMb: 250 };
/** Reads held to a share of the read floor (GET /guilds/{id} from an in-memory copy). */
const READS_AT_FLOOR_SHARE = [
  "GET /guilds/{id}",
  "GET /guilds/{id}/members/{user}",
  "GET /guilds/{id}/members?limit=100",
  "GET /invites/{code}?with_counts=true",
  "GET /lobbies/{id}",
];
/** Writes held to a share of the write floor (a message and its event in one transaction). */
const WRITES_AT_FLOOR_SHARE = ["POST /webhooks/{id}/{token}?wait=true", "PATCH /guilds/{id}", "POST /channels/{id}/messages"];

/** The rows with their share of their floor's req/s: reads of the read floor, writes of the write floor. */
export function withFloorRatios(rows: Row[], floors: { read?: Row; write?: Row }): Row[] {
  const floorOf = (row: Row) =>
    READS_AT_FLOOR_SHARE.includes(row.request) ? floors.read : WRITES_AT_FLOOR_SHARE.includes(row.request) ? floors.write : undefined;
  return rows.map((row) => {
    const floor = floorOf(row);
    return floor ? { ...row, floorRatio: row.result.requests.average / floor.result.requests.average } : row;
  });
}

export type Aim = { aim: string; value: string; met: boolean };

/** The aims of the measured rows; a floor's errors would make its ratios meaningless, so they count too. */
export function restAims(rows: Row[], floors: Row[]): Aim[] {
  const ratioAims = (requests: string[], share: number, floor: string) =>
    rows
      .filter((row) => requests.includes(row.request) && row.floorRatio !== undefined)
      .map((row) => ({ aim: `${row.request} at ${share} of the ${floor} or better`, value: row.floorRatio!.toFixed(3), met: row.floorRatio! >= share }));
  const writes = rows.filter((row) => WRITES_AT_FLOOR_SHARE.includes(row.request));
  const lobbyMessage = rows.find((row) => row.request === "POST /lobbies/{id}/messages");
  const peakRss = Math.max(...rows.map((row) => row.peakRssMb ?? 0));
  const clean = [...rows, ...floors].every(({ result }) => result.errors + result.timeouts + result.non2xx === 0);
  return [
    ...ratioAims(READS_AT_FLOOR_SHARE, AIMS.readShareOfFloor, "floor"),
    ...ratioAims(WRITES_AT_FLOOR_SHARE, AIMS.writeShareOfFloor, "write floor"),
    ...writes.map((row) => ({
      aim: `${row.request} p99 under ${AIMS.writeP99Ms} ms`,
      value: `${row.result.latency.p99.toFixed(1)} ms`,
      met: row.result.latency.p99 < AIMS.writeP99Ms,
    })),
    ...(lobbyMessage
      ? [
          {
            aim: `POST /lobbies/{id}/messages at ${AIMS.lobbyMessagePerSecond} req/s or better`,
            value: `${lobbyMessage.result.requests.average.toFixed(0)} req/s`,
            met: lobbyMessage.result.requests.average >= AIMS.lobbyMessagePerSecond,
          },
        ]
      : []),
    { aim: "no errors and no non-2xx answers", value: clean ? "none" : "some", met: clean },
    { aim: `server peak RSS below ${AIMS.peakRssMb} MB`, value: `${peakRss.toFixed(0)} MB`, met: peakRss < AIMS.peakRssMb },
  ];
}

/** Writes the run to bench/out as JSON; answers the file's path. */
export function writeReport(outDir: string, name: string, config: Record<string, unknown>, rows: Row[], aims: Aim[]): string {
  const date = new Date().toISOString();
  const report = {
    date,
    machine: { cpus: cpus().length, loadAverage: loadavg()[0] },
    config: { connections: CONNECTIONS, ...config },
    rows: rows.map((r) => ({
      server: r.server,
      request: r.request,
      requestsPerSecond: r.result.requests.average,
      floorRatio: r.floorRatio ?? null,
      p50Ms: r.result.latency.p50,
      p99Ms: r.result.latency.p99,
      errors: r.result.errors + r.result.timeouts,
      non2xx: r.result.non2xx,
      cpuMicrosPerRequest: r.cpuMicrosPerRequest,
      peakRssMb: r.peakRssMb,
    })),
    aims,
  };
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${name}-${date.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
