import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, optionalPositiveInt, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

const USAGE = "--name <name> --owner <user id> [--max-concurrency <n>]";

export const appCreate: CliCommand = {
  words: ["app", "create"],
  usage: USAGE,
  summary: "Create an application with its bot user; prints the bot token once",
  options: { name: { type: "string" }, owner: { type: "string" }, "max-concurrency": { type: "string" } },
  async run(args) {
    noPositionals(args, `app create ${USAGE}`);
    const name = requiredString(args, "name");
    const ownerId = requiredString(args, "owner");
    const maxConcurrency = optionalPositiveInt(args, "max-concurrency");
    const { createApplication } = await import("~/server/applications/application.service.ts");
    const { runChange } = await import("~/server/events/change.ts");
    const { application, botUser, botToken } = await withDatabase(async (db) => {
      if (!(await db.user.findUnique({ where: { id: ownerId }, select: { id: true } }))) throw new Error(`Unknown user ${ownerId}`);
      return runChange({ db, actor: null }, ({ tx }) => createApplication(tx, { name, ownerId, maxConcurrency }));
    });
    print(`Application id   ${application.id}`);
    print(`Bot user id      ${botUser.id}`);
    print(`Bot token        ${botToken}`);
    print("Store the token now: it is shown once and only a hash is kept.");
  },
};
