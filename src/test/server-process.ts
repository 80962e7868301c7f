import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

// A real server process (server.ts, REST only) on a test database, started the way
// `npm start` starts it, for tests that need what only a listening server has: a gateway
// that real client libraries connect to.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export type ServerProcess = {
  process: ChildProcess;
  port: number;
  origin: string;
  /** SIGTERM, and waits until it has exited. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash: nothing runs on the way out. Waits until it has exited. */
  kill(): Promise<void>;
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts server.ts on a free port with `env` added, and waits until it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      GUILDHALL_REST_ONLY: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: origin,
      NODE_ENV: "production",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
  });
  child.removeAllListeners("exit");
  child.stdout.resume();
  async function end(signal: NodeJS.Signals): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
  }
  return { process: child, port, origin, stop: () => end("SIGTERM"), kill: () => end("SIGKILL") };
}
