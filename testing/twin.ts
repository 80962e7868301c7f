import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { TwinInfo } from "../src/server/twin/twin-server.ts";

// A test twin of Guildhall for a test suite (README, "Testing your bot against Guildhall"):
// startTwin() starts one (a child process by default, or in this process) and answers where
// it is, fresh credentials, and a client for the twin API: snapshots, the clock, faults,
// acting as people, and the calls an application made.

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// Three folders down from the root, so the bundle's own idea of the project root (db/generate.ts) holds.
const BUNDLE = join(ROOT, "node_modules", ".cache", "guildhall-twin", "twin.mjs");
const ENTRY = join(ROOT, "src", "server", "twin", "twin-main.ts");

/** Where a twin is and what it made for the test: base_url, gateway_url, twin_url, twin_token, bot_token, guild_id... */
export type { TwinInfo };

export type StartTwinOptions = {
  /** "child" (default): a process of its own, stopped with the test run. "in-process": this process's clock becomes the twin's. */
  mode?: "child" | "in-process";
  /** The admin token; a random one by default. */
  token?: string;
  /** A free port by default. */
  port?: number;
};

/** A started twin: where it is (`info`), its twin API, and stop(). */
export type Twin = TwinApi & { info: TwinInfo; stop(): Promise<void> };

/** Starts a throwaway twin and answers once it serves. */
export async function startTwin(options: StartTwinOptions = {}): Promise<Twin> {
  if (options.mode === "in-process") {
    const { startTwinServer } = await import("../src/server/twin/twin-server.ts");
    const server = await startTwinServer({ token: options.token, port: options.port });
    return { ...twinApi(server.info), info: server.info, stop: () => server.stop() };
  }
  const child = spawn(process.execPath, [await twinBundle()], {
    cwd: ROOT,
    env: { ...process.env, GUILDHALL_TWIN_TOKEN: options.token, PORT: options.port === undefined ? "" : String(options.port) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const info = await firstLine(child);
  return { ...twinApi(info), info, stop: () => stopChild(child) };
}

/**
 * The twin's entry bundled by esbuild (packages stay external), rebuilt when a source file is
 * newer than it: a bundle starts in about half the time TypeScript compiled on load takes.
 */
async function twinBundle(): Promise<string> {
  const meta = `${BUNDLE}.inputs.json`;
  try {
    const built = statSync(BUNDLE).mtimeMs;
    const inputs = JSON.parse(readFileSync(meta, "utf8")) as string[];
    if (inputs.every((input) => statSync(join(ROOT, input)).mtimeMs < built)) return BUNDLE;
  } catch {
    // No bundle yet, or an input is gone: build.
  }
  const { build } = await import("esbuild");
  mkdirSync(dirname(BUNDLE), { recursive: true });
  const result = await build({
    entryPoints: [ENTRY],
    outfile: BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    absWorkingDir: ROOT,
    metafile: true,
    logLevel: "warning",
  });
  writeFileSync(meta, JSON.stringify(Object.keys(result.metafile.inputs)));
  return BUNDLE;
}

function firstLine(child: ChildProcess): Promise<TwinInfo> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const failed = (code: number | null) => reject(new Error(`The twin exited (code ${code}) before it served; its errors are above`));
    child.once("exit", failed);
    lines.once("line", (line) => {
      child.off("exit", failed);
      resolve(JSON.parse(line) as TwinInfo);
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** A refusal of the twin API: its status and the platform's error body. */
export class TwinError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`Twin API answered ${status}: ${JSON.stringify(body)}`);
  }
}

type TwinApi = ReturnType<typeof twinApi>;

/** The twin's clock. */
export type ClockState = { now: string; frozen: boolean; offset_ms: number };
export type Snapshot = { id: string; name: string | null; created_at: string; clock: { now: string; frozen: boolean }; bytes: number; took_ms: number };
/** A REST fault rule (README, "Faults"). */
export type FaultRule = {
  match: { method?: string; route?: string; params?: Record<string, string>; application_id?: string };
  effect: { type: "rate_limit"; retry_after: number; global?: boolean } | { type: "error"; status: 500 | 502 | 503 | 504 } | { type: "delay"; ms: number };
  times?: number;
  probability?: number;
};
export type GatewayFault =
  | { type: "close"; code: number; reason?: string }
  | { type: "reconnect" }
  | { type: "invalid_session"; resumable: boolean }
  | { type: "drop_heartbeat_acks"; count: number };

/** A typed client for the twin API of the twin at `info`; `call` reaches any twin route. */
function twinApi(info: Pick<TwinInfo, "twin_url" | "twin_token">) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${info.twin_url}${path}`, {
      method,
      headers: { authorization: `Twin ${info.twin_token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const answer: unknown = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new TwinError(response.status, answer);
    return answer as T;
  }
  const moveClock = (body: { advance_ms?: number; set?: string; frozen?: boolean }) =>
    call<{ clock: ClockState; swept: Record<string, number> }>("POST", "/clock", body);
  return {
    call,
    /** Saves the whole state (database and clock) and answers its id. */
    snapshot: (name?: string) => call<Snapshot>("POST", "/snapshots", { name }),
    /** Puts the state back as `snapshot` saved it: caches dropped, gateway sessions told to reconnect. */
    restore: (snapshot: Pick<Snapshot, "id">) => call<{ took_ms: number; sessions_reconnected: number }>("POST", `/snapshots/${snapshot.id}/restore`),
    clock: {
      get: () => call<ClockState>("GET", "/clock"),
      /** Moves the clock forward, then runs every sweep whose time passed (invites, lobbies, threads...). */
      advance: (ms: number) => moveClock({ advance_ms: ms }),
      set: (at: Date | string) => moveClock({ set: typeof at === "string" ? at : at.toISOString() }),
      freeze: () => moveClock({ frozen: true }),
      unfreeze: () => moveClock({ frozen: false }),
    },
    faults: {
      add: (rule: FaultRule) => call<FaultRule & { id: string; remaining: number | null; hits: number }>("POST", "/faults", rule),
      list: () => call<(FaultRule & { id: string; remaining: number | null; hits: number })[]>("GET", "/faults"),
      remove: (id: string) => call<undefined>("DELETE", `/faults/${id}`),
      clear: () => call<undefined>("DELETE", "/faults"),
      /** Applies a gateway fault at once to the live sessions that match (all by default). */
      gateway: (action: GatewayFault, match?: { application_id?: string; session_id?: string; shard?: number }) =>
        call<{ sessions: number }>("POST", "/gateway/faults", { action, match }),
    },
    people: {
      createUser: (input: { username: string; global_name?: string; bearer_for_application?: string }) =>
        call<{ user: { id: string; username: string }; bearer_token?: string }>("POST", "/users", input),
      join: (guildId: string, userId: string) => call<unknown>("PUT", `/guilds/${guildId}/members/${userId}`),
      leave: (guildId: string, userId: string) => call<undefined>("DELETE", `/guilds/${guildId}/members/${userId}`),
      acceptInvite: (code: string, userId: string) => call<unknown>("POST", `/invites/${code}/accept`, { user_id: userId }),
      /** Posts a message as the user (the REST message body: content, embeds, message_reference...). */
      say: (channelId: string, userId: string, message: Record<string, unknown> & { content?: string }) =>
        call<{ id: string; content: string }>("POST", `/channels/${channelId}/messages`, { user_id: userId, ...message }),
      voice: (guildId: string, userId: string, state: { channel_id: string | null; self_mute?: boolean; self_deaf?: boolean }) =>
        call<unknown>("PUT", `/guilds/${guildId}/voice-states/${userId}`, state),
      presence: (userId: string, presence: { status: string; activities?: unknown[] }) => call<unknown>("PUT", `/users/${userId}/presence`, presence),
    },
    /** Forgets what an application did so far (recorded calls are kept across restores: they are the test's, not the world's). */
    clearCalls: (applicationId: string) => call<undefined>("DELETE", `/applications/${applicationId}/calls`),
    /** What an application's bot and players did: REST requests and gateway frames, oldest first. */
    calls: (applicationId: string, query: { after?: string; limit?: number; kind?: "rest" | "gateway"; status?: string } = {}) =>
      call<{ calls: RecordedCall[]; next_after: string | null }>(
        "GET",
        `/applications/${applicationId}/calls?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString()}`,
      ),
  };
}

/** One recorded call (README, "See what a bot did"). */
export type RecordedCall = {
  id: string;
  at: string;
  kind: "rest" | "gateway";
  method?: string;
  path?: string;
  route?: string;
  status?: number;
  op?: number;
  t?: string | null;
  [field: string]: unknown;
};
