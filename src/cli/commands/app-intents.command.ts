import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

const USAGE = "--app <application id> [--approve LIST | --revoke LIST]";

export const appIntents: CliCommand = {
  words: ["app", "intents"],
  usage: USAGE,
  summary: "Show an app's privileged intents; approve or withdraw GUILD_MEMBERS, PRESENCE, MESSAGE_CONTENT (comma-separated)",
  options: { app: { type: "string" }, approve: { type: "string" }, revoke: { type: "string" } },
  async run(args) {
    noPositionals(args, `app intents ${USAGE}`);
    const applicationId = requiredString(args, "app");
    const { INTENT_REVIEW_THRESHOLD, applicationReach, describeIntents, parseIntentList, setApprovedIntents } =
      await import("~/server/applications/intents.ts");
    const parse = (list: unknown) => (typeof list === "string" ? parseIntentList(list) : null);
    const approve = parse(args.values.approve);
    const revoke = parse(args.values.revoke);
    if (approve && revoke) throw new Error("Give --approve or --revoke, not both.");
    const { flags, reach } = await withDatabase(async (db) => {
      const app = await db.application.findUnique({ where: { id: applicationId }, select: { flags: true, botUserId: true } });
      if (!app) throw new Error(`Unknown application ${applicationId}`);
      const reach = await applicationReach(db, app.botUserId);
      if (approve) return { flags: await setApprovedIntents({ db, actor: null }, applicationId, approve, true), reach };
      if (revoke) return { flags: await setApprovedIntents({ db, actor: null }, applicationId, revoke, false), reach };
      return { flags: app.flags, reach };
    });
    for (const [name, state] of Object.entries(describeIntents(flags, reach))) print(`${name.padEnd(16)}${state}`);
    print(`Bot reach       ${reach} users (self-set intents need an approval from ${INTENT_REVIEW_THRESHOLD})`);
  },
};
