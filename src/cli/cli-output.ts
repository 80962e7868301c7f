/** Where the CLI's lines go: `out` for what a command answers, `err` for what went wrong. */
export type CliOutput = { out(line: string): void; err(line: string): void };

const processOutput: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

let current = processOutput;

/** Prints one line of a command's answer. */
export function print(line: string): void {
  current.out(line);
}

/** Prints one line saying what went wrong. */
export function printError(line: string): void {
  current.err(line);
}

/** Runs `fn` with the CLI's lines going to `output` (the process's own when undefined), one run at a time. */
export async function withOutput<T>(output: CliOutput | undefined, fn: () => Promise<T>): Promise<T> {
  const before = current;
  current = output ?? processOutput;
  try {
    return await fn();
  } finally {
    current = before;
  }
}
