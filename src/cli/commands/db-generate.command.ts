import type { CliCommand } from "../command.ts";

export const dbGenerate: CliCommand = {
  words: ["db", "generate"],
  summary: "Generate the Prisma clients (SQLite and PostgreSQL)",
  async run() {
    const { generateClients } = await import("~/server/db/generate.ts");
    await generateClients();
  },
};
