import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { dropPostgresBenchDatabases } from "./bench-database.ts";

// `npm run bench:rest [-- --database postgres --duration 10 --only get,patch --guilds 1000 --profile]`
// runs the REST bench (rest-run.ts). On PostgreSQL it runs in a child process, so that this one
// stays to drop the databases a stopped bench left.

const ROOT = new URL("..", import.meta.url);
const { values: flags } = parseArgs({ args: process.argv.slice(2), options: { database: { type: "string", default: "sqlite" } }, strict: false });

if (flags.database !== "postgres") {
  await import("./rest-run.ts");
} else {
  // Ctrl-C reaches the bench too; this process stays to drop what it left.
  process.on("SIGINT", () => console.log("Interrupted: waiting for the bench to stop."));
  const bench = spawn(process.execPath, ["--import", "tsx", "bench/rest-run.ts", ...process.argv.slice(2)], { cwd: ROOT, stdio: "inherit" });
  process.exitCode = await new Promise<number>((resolve) => bench.once("exit", (code) => resolve(code ?? 1)));
  if (bench.pid !== undefined) await dropPostgresBenchDatabases(bench.pid);
}
