import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

export const appToken: CliCommand = {
  words: ["app", "token"],
  usage: "--app <application id> [--reset]",
  summary: "Issue another bot token for an application; with --reset every earlier one stops working",
  options: { app: { type: "string" }, reset: { type: "boolean" } },
  async run(args) {
    noPositionals(args, "app token --app <application id> [--reset]");
    const applicationId = requiredString(args, "app");
    const { createBotToken, resetBotToken } = await import("~/server/auth/tokens.service.ts");
    const { runChange } = await import("~/server/events/change.ts");
    const token = await withDatabase(async (db) => {
      const application = await db.application.findUnique({ where: { id: applicationId }, select: { id: true, botUserId: true } });
      if (!application) throw new Error(`Unknown application ${applicationId}`);
      const ctx = { db, actor: null };
      return args.values.reset ? resetBotToken(ctx, application) : runChange(ctx, ({ tx }) => createBotToken(tx, application));
    });
    print(token);
  },
};
