import { spawn } from "node:child_process";
import { createWriteStream, rmSync } from "node:fs";
import { createServer } from "node:net";
import { sqlitePath } from "~/server/db/client.ts";
import { applyMigrations } from "~/server/db/migrate.ts";
import { E2E_RATE_LIMIT_SCALE, serverLog } from "./e2e-env.ts";

/** A new, migrated SQLite database at `url`, replacing whatever was there. */
export async function freshDatabase(url: string): Promise<void> {
  const file = sqlitePath(url);
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
  await applyMigrations(url);
}

export type ProductionServer = {
  baseURL: string;
  /** Everything it has printed so far (the page sweep looks there for server errors); also copied to a file, data/e2e-server-<port>.log. */
  printed(): string;
  stop(): Promise<void>;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once("error", reject);
  });
}

/** How long a stopping server may take to answer what it received before it is killed. */
const STOP_MS = 15_000;

/**
 * A production server of the build (`npm start`) on a free port and `databaseUrl`, for tests
 * that need a server of their own; resolves once it listens and answers the sign-in page.
 */
export async function startProductionServer(databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<ProductionServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const log = serverLog(port);
  const output = createWriteStream(log);
  let printed = "";
  // Its own process group, so stopping it stops npm's node child too.
  const child = spawn("npm", ["start"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      PUBLIC_BASE_URL: baseURL,
      RATE_LIMIT_SCALE: E2E_RATE_LIMIT_SCALE,
      ...extraEnv,
    },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Guildhall listening")) resolve();
    });
    void exited.then(() => reject(new Error(`The server on ${baseURL} exited before it listened; its output is in ${log}`)));
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
      output.write(chunk);
    });
  }

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        // Already gone.
      }
    };
    signal("SIGTERM");
    const killing = setTimeout(() => signal("SIGKILL"), STOP_MS);
    await exited;
    clearTimeout(killing);
    output.end();
  };
  try {
    await listening;
    const signin = await fetch(`${baseURL}/signin`);
    if (!signin.ok) throw new Error(`The server on ${baseURL} answered /signin with ${signin.status}; its output is in ${log}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, printed: () => printed, stop };
}
