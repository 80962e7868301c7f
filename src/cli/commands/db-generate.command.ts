import type { CliCommand } from "../command.ts";

export const dbGenerate: CliCommand = {
  words: ["db", "generate"],
  summary: "Generate the Prisma client for the provider of DATABASE_URL",
  async run() {
    const { generateClient } = await import("~/server/db/generate.ts");
    generateClient();
  },
};
