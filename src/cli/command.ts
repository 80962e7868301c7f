import type { ParseArgsConfig } from "node:util";

export type CliArgs = {
  positionals: string[];
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
};

export type CliCommand = {
  /** The words that select the command, e.g. ["db", "migrate"]. */
  words: readonly string[];
  /** What follows the words, e.g. "<name>"; shown in the help. */
  usage?: string;
  summary: string;
  options?: ParseArgsConfig["options"];
  /**
   * Import what the command needs inside run: the CLI has to start (for `db generate`)
   * before a Prisma client has been generated.
   */
  run(args: CliArgs): Promise<void>;
};
