import { relative } from "node:path";
import type { CliCommand } from "../command.ts";
import { print } from "../cli-output.ts";

export const dbMigrationCreate: CliCommand = {
  words: ["db", "migration", "create"],
  usage: "<name> [--postgres-url <url>]",
  summary: "Write the next migration for every provider from schema.prisma",
  options: { "postgres-url": { type: "string" } },
  async run({ positionals, values }) {
    const [name, ...rest] = positionals;
    if (!name || rest.length > 0) throw new Error("Usage: db migration create <name>");
    const { createMigration } = await import("~/server/db/migrate.ts");
    const postgresUrl = typeof values["postgres-url"] === "string" ? values["postgres-url"] : undefined;
    for (const dir of await createMigration(name, postgresUrl)) print(`Created ${relative(process.cwd(), dir)}`);
  },
};
