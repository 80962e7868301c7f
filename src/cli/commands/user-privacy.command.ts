import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, optionalString, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

const USAGE = "--user <user id> [--set everyone|friends_and_small_servers|friends_only]";

export const userPrivacy: CliCommand = {
  words: ["user", "privacy"],
  usage: USAGE,
  summary: "Show a user's profile privacy (who sees their custom status in presences); change it with --set",
  options: { user: { type: "string" }, set: { type: "string" } },
  async run(args) {
    noPositionals(args, `user privacy ${USAGE}`);
    const userId = requiredString(args, "user");
    const wanted = optionalString(args, "set");
    const { describeProfilePrivacy } = await import("~/server/gateway/presence-privacy.ts");
    const { ZProfilePrivacySchema } = await import("~/server/users/user.schema.ts");
    const { readProfilePrivacy, setProfilePrivacy } = await import("~/server/users/account.service.ts");
    const parsed = wanted === undefined ? null : ZProfilePrivacySchema.safeParse(wanted);
    if (parsed && !parsed.success) throw new Error(`--set takes one of: ${ZProfilePrivacySchema.options.join(", ")}`);
    const privacy = await withDatabase((db) =>
      parsed?.success ? setProfilePrivacy({ db, actor: null }, userId, parsed.data) : readProfilePrivacy(db, userId),
    );
    print(`${privacy}: ${describeProfilePrivacy(privacy)}`);
  },
};
