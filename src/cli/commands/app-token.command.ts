import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, requiredString } from "../options.ts";

export const appToken: CliCommand = {
  words: ["app", "token"],
  usage: "--app <application id>",
  summary: "Issue another bot token for an application (earlier ones stay valid)",
  options: { app: { type: "string" } },
  async run(args) {
    noPositionals(args, "app token --app <application id>");
    const applicationId = requiredString(args, "app");
    const { createBotToken } = await import("~/server/auth/tokens.service.ts");
    const token = await withDatabase(async (db) => {
      const application = await db.application.findUnique({ where: { id: applicationId }, select: { id: true, botUserId: true } });
      if (!application) throw new Error(`Unknown application ${applicationId}`);
      return createBotToken(db, application);
    });
    console.log(token);
  },
};
