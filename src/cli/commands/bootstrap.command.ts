import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, optionalString } from "../options.ts";

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
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return;
    }
    console.log(`Base URL         ${result.base_url}   (API version 10: ${result.base_url}/v10)`);
    console.log(`Application id   ${result.application_id}`);
    console.log(`Bot user id      ${result.bot_user_id}`);
    console.log(`Bot token        ${result.bot_token}   (Authorization: Bot <token>)`);
    console.log(`User id          ${result.user_id}`);
    console.log(`User bearer      ${result.user_bearer}   (Authorization: Bearer <token>; scopes ${BOOTSTRAP_USER_SCOPES.join(" ")})`);
    console.log(`Guild id         ${result.guild_id}   (owned by the bot)`);
    console.log(`Client secret    ${result.client_secret}   (OAuth2 client id = application id)`);
    console.log(`Intents          ${intents.length > 0 ? `${intents.join(", ")} (limited)` : "none privileged (--intents to switch some on)"}`);
    console.log("The tokens are shown once: only their hashes are stored.");
  },
};
