import type { CliCommand } from "../command.ts";
import { print } from "../cli-output.ts";

export const dbMigrate: CliCommand = {
  words: ["db", "migrate"],
  summary: "Apply pending migrations to DATABASE_URL",
  async run() {
    const { applyMigrations } = await import("~/server/db/migrate.ts");
    const applied = await applyMigrations();
    if (applied.length === 0) print("No pending migrations; the database is up to date.");
    for (const name of applied) print(`Applied ${name}`);
  },
};
