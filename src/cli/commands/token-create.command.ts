import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, optionalString, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

const USAGE = '--user <user id> --scopes "identify guilds ..." [--app <application id>]';

export const tokenCreate: CliCommand = {
  words: ["token", "create"],
  usage: USAGE,
  summary: "Issue an OAuth2 bearer token for a user; prints it",
  options: { user: { type: "string" }, scopes: { type: "string" }, app: { type: "string" } },
  async run(args) {
    noPositionals(args, `token create ${USAGE}`);
    const userId = requiredString(args, "user");
    const requested = requiredString(args, "scopes")
      .split(/[\s,]+/)
      .filter(Boolean);
    const applicationId = optionalString(args, "app");
    const { OAUTH2_SCOPES } = await import("~/server/auth/actor.ts");
    const valid: readonly string[] = OAUTH2_SCOPES;
    const unknown = requested.filter((scope) => !valid.includes(scope));
    if (unknown.length) throw new Error(`Unknown scope${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}. Valid scopes: ${OAUTH2_SCOPES.join(" ")}`);
    const scopes = OAUTH2_SCOPES.filter((scope) => requested.includes(scope));
    const { issueBearerToken } = await import("~/server/applications/application.service.ts");
    const token = await withDatabase(async (db) => {
      if (!(await db.user.findUnique({ where: { id: userId }, select: { id: true } }))) throw new Error(`Unknown user ${userId}`);
      if (applicationId && !(await db.application.findUnique({ where: { id: applicationId }, select: { id: true } })))
        throw new Error(`Unknown application ${applicationId}`);
      return issueBearerToken({ db, actor: null }, { userId, applicationId, scopes });
    });
    print(token);
  },
};
