import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, optionalString } from "../options.ts";
import { print } from "../cli-output.ts";

const USAGE = "[--json] [--intents LIST]";

export const bootstrap: CliCommand = {
  words: ["bootstrap"],
  usage: USAGE,
  summary:
    "Fresh bot, user bearer token and guild for a REST caller (--json: one JSON object; run with npm run -s). " +
    "--intents GUILD_MEMBERS,PRESENCE,MESSAGE_CONTENT switches those on for the bot in their limited form (off by default)",
  options: { json: { type: "boolean" }, intents: { type: "string" } },
  async run(args) {
    noPositionals(args, `bootstrap ${USAGE}`);
    const { env } = await import("~/env.ts");
    const { parseIntentList } = await import("~/server/applications/intents.ts");
    const { BOOTSTRAP_USER_SCOPES, createBootstrapCredentials } = await import("~/server/seed/bootstrap.ts");
    const list = optionalString(args, "intents");
    const intents = list === undefined ? [] : parseIntentList(list);
    const credentials = await withDatabase((db) => createBootstrapCredentials(db, { intents }));
    // Client libraries take the API root and add the version themselves (…/api → …/api/v10).
    const result = { base_url: `${env().PUBLIC_BASE_URL.replace(/\/+$/, "")}/api`, ...credentials };
    if (args.values.json) {
      print(`${JSON.stringify(result)}`);
      return;
    }
    print(`Base URL         ${result.base_url}   (API version 10: ${result.base_url}/v10)`);
    print(`Application id   ${result.application_id}`);
    print(`Bot user id      ${result.bot_user_id}`);
    print(`Bot token        ${result.bot_token}   (Authorization: Bot <token>)`);
    print(`User id          ${result.user_id}`);
    print(`User bearer      ${result.user_bearer}   (Authorization: Bearer <token>; scopes ${BOOTSTRAP_USER_SCOPES.join(" ")})`);
    print(`Guild id         ${result.guild_id}   (owned by the bot)`);
    print(`Client secret    ${result.client_secret}   (OAuth2 client id = application id)`);
    print(`Intents          ${intents.length > 0 ? `${intents.join(", ")} (limited)` : "none privileged (--intents to switch some on)"}`);
    print("The tokens are shown once: only their hashes are stored.");
  },
};
