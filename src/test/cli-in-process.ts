import { runCli } from "~/cli/run-cli.ts";
import { forgetEnv } from "~/env.ts";

export type CliRun = { code: number; stdout: string; stderr: string };

function setEnvironment(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  forgetEnv();
}

/**
 * Runs `npm run cli -- ...args` in this process, with `env` added to the environment for the
 * run, and answers its exit code and what it printed. A new process per command would cost
 * seconds each; the process entry itself is tested apart (src/cli/cli.integration-test.ts).
 */
export async function runCliInProcess(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const stdout: string[] = [];
  const stderr: string[] = [];
  setEnvironment(env);
  try {
    const code = await runCli(args, { out: (line) => stdout.push(`${line}\n`), err: (line) => stderr.push(`${line}\n`) });
    return { code, stdout: stdout.join(""), stderr: stderr.join("") };
  } finally {
    setEnvironment(before);
  }
}
