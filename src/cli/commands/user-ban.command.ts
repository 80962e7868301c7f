import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { optionalString } from "../options.ts";
import { print } from "../cli-output.ts";

const USAGE = "<user id> (--until <ISO date> | --lift) [--json]";

export const userBan: CliCommand = {
  words: ["user", "ban"],
  usage: USAGE,
  summary: "Ban an account from the platform until a date (its tokens stop working; a provisional account cannot be merged), or --lift the ban",
  options: { until: { type: "string" }, lift: { type: "boolean" }, json: { type: "boolean" } },
  async run(args) {
    const [userId, ...rest] = args.positionals;
    if (!userId || rest.length > 0) throw new Error(`Usage: user ban ${USAGE}`);
    const untilText = optionalString(args, "until");
    if ((untilText === undefined) === !args.values.lift) throw new Error("Give --until <ISO date> or --lift, one of them.");
    const until = untilText === undefined ? null : new Date(untilText);
    if (until && Number.isNaN(until.getTime())) throw new Error(`--until must be an ISO date, got ${JSON.stringify(untilText)}`);
    const { setUserBan } = await import("~/server/users/user-ban.service.ts");
    const { bannedUntil } = await withDatabase((db) => setUserBan({ db, actor: null }, userId, until));
    if (args.values.json) print(JSON.stringify({ user_id: userId, banned_until: bannedUntil?.toISOString() ?? null }));
    else print(bannedUntil ? `User ${userId} is banned until ${bannedUntil.toISOString()}.` : `User ${userId} is not banned.`);
  },
};
