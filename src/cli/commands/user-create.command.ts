import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, optionalString, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

const USAGE = "--username <name> [--email <email> --password <password>]";

export const userCreate: CliCommand = {
  words: ["user", "create"],
  usage: USAGE,
  summary: "Create a user (with email and password it can sign in); prints its id",
  options: { username: { type: "string" }, email: { type: "string" }, password: { type: "string" } },
  async run(args) {
    noPositionals(args, `user create ${USAGE}`);
    const username = requiredString(args, "username");
    const email = optionalString(args, "email");
    const password = optionalString(args, "password");
    if (Boolean(email) !== Boolean(password)) throw new Error("--email and --password go together: a dashboard sign-in needs both");
    const { createUser, newUserWithPassword } = await import("~/server/applications/application.service.ts");
    const { runChange } = await import("~/server/events/change.ts");
    const user = await withDatabase(async (db) => {
      if (email && (await db.user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true } }))) {
        throw new Error(`A user with the email ${email} already exists`);
      }
      const user = await newUserWithPassword({ username, email, password });
      return runChange({ db, actor: null }, ({ tx }) => createUser(tx, user));
    });
    print(user.id);
  },
};
