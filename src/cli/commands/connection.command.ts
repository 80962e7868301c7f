import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, optionalString, parseOptions, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

const ADD_USAGE =
  "--user <id> --type <service> --id <account id> --name <name> [--created-at <ISO time>] [--visibility 0|1] [--unverified] [--revoked] [--friend-sync] [--hide-activity] [--two-way-link]";

export const connectionAdd: CliCommand = {
  words: ["connection", "add"],
  usage: ADD_USAGE,
  summary: "Link a user's account on another service (github, twitch, bungie, ...), or update the link",
  options: {
    user: { type: "string" },
    type: { type: "string" },
    id: { type: "string" },
    name: { type: "string" },
    "created-at": { type: "string" },
    visibility: { type: "string" },
    unverified: { type: "boolean" },
    revoked: { type: "boolean" },
    "friend-sync": { type: "boolean" },
    "hide-activity": { type: "boolean" },
    "two-way-link": { type: "boolean" },
  },
  async run(args) {
    noPositionals(args, `connection add ${ADD_USAGE}`);
    const { ZConnectionAddSchema } = await import("~/server/users/connection.schema.ts");
    const visibility = optionalString(args, "visibility");
    const input = parseOptions(
      ZConnectionAddSchema,
      {
        user_id: optionalString(args, "user"),
        type: optionalString(args, "type"),
        id: optionalString(args, "id"),
        name: optionalString(args, "name"),
        created_at: optionalString(args, "created-at"),
        visibility: visibility === undefined ? undefined : Number(visibility),
        verified: args.values.unverified !== true,
        revoked: args.values.revoked === true,
        friend_sync: args.values["friend-sync"] === true,
        show_activity: args.values["hide-activity"] !== true,
        two_way_link: args.values["two-way-link"] === true,
      },
      { user_id: "user", verified: "unverified", show_activity: "hide-activity" },
    );
    const { addConnection } = await import("~/server/users/connection.service.ts");
    const connection = await withDatabase((db) => addConnection({ db, actor: null }, input));
    print(`Linked ${connection.type} account ${connection.id} (${connection.name}) to user ${connection.userId}.`);
  },
};

export const connectionList: CliCommand = {
  words: ["connection", "list"],
  usage: "--user <id>",
  summary: "List a user's connections, and whether GET /users/@me/connections shows each now",
  options: { user: { type: "string" } },
  async run(args) {
    noPositionals(args, "connection list --user <id>");
    const userId = requiredString(args, "user");
    const { readUserConnections } = await import("~/server/users/connection.service.ts");
    const { isConnectionListed } = await import("~/server/users/connection-sunsets.ts");
    const connections = await withDatabase((db) => readUserConnections(db, userId));
    if (connections.length === 0) print(`User ${userId} has no connections.`);
    const now = new Date();
    for (const c of connections) {
      const shown = isConnectionListed(c, now) ? "listed" : "not listed (retired kind)";
      print(`${c.type.padEnd(16)}  ${c.id}  ${c.name}  since ${c.createdAt.toISOString()}  ${shown}`);
    }
  },
};

export const connectionRemove: CliCommand = {
  words: ["connection", "remove"],
  usage: "--user <id> --type <service> --id <account id>",
  summary: "Unlink a user's account on another service",
  options: { user: { type: "string" }, type: { type: "string" }, id: { type: "string" } },
  async run(args) {
    noPositionals(args, "connection remove --user <id> --type <service> --id <account id>");
    const key = { userId: requiredString(args, "user"), type: requiredString(args, "type"), id: requiredString(args, "id") };
    const { removeConnection } = await import("~/server/users/connection.service.ts");
    const removed = await withDatabase((db) => removeConnection({ db, actor: null }, key));
    if (!removed) throw new Error(`User ${key.userId} has no ${key.type} connection ${key.id}`);
    print(`Unlinked ${key.type} account ${key.id} from user ${key.userId}.`);
  },
};
