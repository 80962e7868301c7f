import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, optionalString, parseOptions, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

const ADD_USAGE = "--guild <id> --type twitch|youtube|guild_subscription --name <name> --account-id <id> --account-name <name> [--user <user id>]";

export const integrationAdd: CliCommand = {
  words: ["integration", "add"],
  usage: ADD_USAGE,
  summary: "Add a Twitch, YouTube or server subscription integration to a guild (Twitch and YouTube need --user, the account's owner)",
  options: {
    guild: { type: "string" },
    type: { type: "string" },
    name: { type: "string" },
    "account-id": { type: "string" },
    "account-name": { type: "string" },
    user: { type: "string" },
  },
  async run(args) {
    noPositionals(args, `integration add ${ADD_USAGE}`);
    const { ZIntegrationAddSchema } = await import("~/server/integrations/integration.schema.ts");
    const input = parseOptions(
      ZIntegrationAddSchema,
      {
        guild_id: optionalString(args, "guild"),
        type: optionalString(args, "type"),
        name: optionalString(args, "name"),
        account_id: optionalString(args, "account-id"),
        account_name: optionalString(args, "account-name"),
        user_id: optionalString(args, "user"),
      },
      { guild_id: "guild", user_id: "user" },
    );
    const { addIntegration } = await import("~/server/integrations/integration.service.ts");
    const integration = await withDatabase((db) => addIntegration({ db, actor: null }, input));
    print(
      `Added ${integration.type} integration ${integration.id} "${integration.name}"${integration.role_id ? ` with managed role ${integration.role_id}` : ""}.`,
    );
  },
};

export const integrationList: CliCommand = {
  words: ["integration", "list"],
  usage: "--guild <id>",
  summary: "List a guild's integrations, oldest first (the 50 the API shows)",
  options: { guild: { type: "string" } },
  async run(args) {
    noPositionals(args, "integration list --guild <id>");
    const guildId = requiredString(args, "guild");
    const { readGuildIntegrations } = await import("~/server/integrations/integration.service.ts");
    const integrations = await withDatabase(async (db) => {
      if (!(await db.guild.findUnique({ where: { id: guildId }, select: { id: true } }))) throw new Error(`Unknown guild ${guildId}`);
      return readGuildIntegrations(db, guildId);
    });
    if (integrations.length === 0) print(`Guild ${guildId} has no integrations.`);
    for (const integration of integrations) {
      const by = integration.user ? `  added by ${integration.user.username}` : "";
      print(`${integration.id}  ${integration.type.padEnd(18)}  ${integration.name}  (account ${integration.account.name} ${integration.account.id})${by}`);
    }
  },
};
