import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

const USAGE = "--app <application id> [--lift | --restore]";

export const appLimits: CliCommand = {
  words: ["app", "limits"],
  usage: USAGE,
  summary: "Show whether an app has development rate limits; --lift grants production limits, --restore takes them back",
  options: { app: { type: "string" }, lift: { type: "boolean" }, restore: { type: "boolean" } },
  async run(args) {
    noPositionals(args, `app limits ${USAGE}`);
    const applicationId = requiredString(args, "app");
    if (args.values.lift && args.values.restore) throw new Error("Give --lift or --restore, not both.");
    const { developmentLimitsApply, setRateLimitsLifted } = await import("~/server/applications/rate-limits.ts");
    const applies = await withDatabase(async (db) => {
      if ((await developmentLimitsApply(db, applicationId)) === null) throw new Error(`Unknown application ${applicationId}`);
      if (args.values.lift || args.values.restore) await setRateLimitsLifted({ db, actor: null }, applicationId, Boolean(args.values.lift));
      return developmentLimitsApply(db, applicationId);
    });
    print(applies ? "Development rate limits apply (spec 8)." : "Production rate limits: development limits lifted.");
  },
};
