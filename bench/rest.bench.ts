import { execFileSync, spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { dropPostgresBenchDatabases, POSTGRES_ADMIN_URL } from "./bench-database.ts";

// `npm run bench:rest [-- --database postgres --duration 10 --only get,patch --guilds 1000 --profile]`
// runs the REST bench (rest-run.ts). The Prisma client is generated for one provider and
// the server bundles it, so on PostgreSQL the client is generated for it before the bench's
// modules load (in a child process), and generated for SQLite again afterwards, whatever
// happened, with the server built again to match; databases a stopped bench left are dropped.

const ROOT = new URL("..", import.meta.url);
const { values: flags } = parseArgs({ args: process.argv.slice(2), options: { database: { type: "string", default: "sqlite" } }, strict: false });

function generateClient(databaseUrl: string): void {
  execFileSync("npm", ["run", "-s", "db:generate"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: "inherit" });
}

if (flags.database !== "postgres") {
  await import("./rest-run.ts");
} else {
  // Ctrl-C reaches the bench too; this process stays to put the SQLite client back.
  process.on("SIGINT", () => console.log("Interrupted: waiting for the bench to stop."));
  try {
    generateClient(POSTGRES_ADMIN_URL);
    const bench = spawn(process.execPath, ["--import", "tsx", "bench/rest-run.ts", ...process.argv.slice(2)], { cwd: ROOT, stdio: "inherit" });
    process.exitCode = await new Promise<number>((resolve) => bench.once("exit", (code) => resolve(code ?? 1)));
    if (bench.pid !== undefined) await dropPostgresBenchDatabases(bench.pid);
  } finally {
    console.log("Generating the Prisma client for SQLite again and building the server with it…");
    generateClient("file:./data/guildhall.db");
    execFileSync("npm", ["run", "-s", "build:server"], { cwd: ROOT, stdio: "inherit" });
  }
}
