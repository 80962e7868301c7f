import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals } from "../options.ts";

export const bootstrap: CliCommand = {
  words: ["bootstrap"],
  usage: "[--json]",
  summary: "Fresh bot, user bearer token and guild for a REST caller (--json: one JSON object; run with npm run -s)",
  options: { json: { type: "boolean" } },
  async run(args) {
    noPositionals(args, "bootstrap [--json]");
    const { env } = await import("~/env.ts");
    const { BOOTSTRAP_USER_SCOPES, createBootstrapCredentials } = await import("~/server/seed/bootstrap.ts");
    const credentials = await withDatabase(createBootstrapCredentials);
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
    console.log("The tokens are shown once: only their hashes are stored.");
  },
};
