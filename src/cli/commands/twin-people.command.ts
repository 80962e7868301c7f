import type { CliArgs, CliCommand } from "../command.ts";
import { noPositionals, optionalString, requiredString } from "../options.ts";
import { callTwin, printAnswer, TWIN_OPTIONS, TWIN_USAGE } from "../twin-client.ts";
import { print } from "../cli-output.ts";

// Acting as people on a running twin (POST /__twin/users and the rows beside it): each command
// is one call, so a refusal is the service's own (a permission, a ban, an unknown id).

/** Prints the answer, or `done` when the twin answered 204 (nothing to show). */
function printOutcome(args: CliArgs, answer: unknown, done: string): void {
  if (answer === null && !args.values.json) print(done);
  else printAnswer(args, answer);
}

const USER_CREATE_USAGE = `--username U [--global-name G] [--bearer-for APP_ID] ${TWIN_USAGE}`;
export const twinUserCreate: CliCommand = {
  words: ["twin", "user", "create"],
  usage: USER_CREATE_USAGE,
  summary: "Make a person on a running twin (with a bearer token for an application when asked); prints the user and the token",
  options: { ...TWIN_OPTIONS, username: { type: "string" }, "global-name": { type: "string" }, "bearer-for": { type: "string" } },
  async run(args) {
    noPositionals(args, `twin user create ${USER_CREATE_USAGE}`);
    const body = {
      username: requiredString(args, "username"),
      global_name: optionalString(args, "global-name"),
      bearer_for_application: optionalString(args, "bearer-for"),
    };
    printAnswer(args, await callTwin(args, "POST", "/users", body));
  },
};

const MEMBER_USAGE = `--guild ID --user ID ${TWIN_USAGE}`;
const MEMBER_OPTIONS = { ...TWIN_OPTIONS, guild: { type: "string" }, user: { type: "string" } } as const;
const memberPath = (args: CliArgs) => `/guilds/${requiredString(args, "guild")}/members/${requiredString(args, "user")}`;

export const twinMemberAdd: CliCommand = {
  words: ["twin", "member", "add"],
  usage: MEMBER_USAGE,
  summary: "A person joins a guild on a running twin (bans and screening apply; bots hear GUILD_MEMBER_ADD)",
  options: MEMBER_OPTIONS,
  async run(args) {
    noPositionals(args, `twin member add ${MEMBER_USAGE}`);
    printOutcome(args, await callTwin(args, "PUT", memberPath(args)), "Already a member.");
  },
};

export const twinMemberRemove: CliCommand = {
  words: ["twin", "member", "remove"],
  usage: MEMBER_USAGE,
  summary: "A person leaves a guild on a running twin (bots hear GUILD_MEMBER_REMOVE)",
  options: MEMBER_OPTIONS,
  async run(args) {
    noPositionals(args, `twin member remove ${MEMBER_USAGE}`);
    printOutcome(args, await callTwin(args, "DELETE", memberPath(args)), "Left the guild.");
  },
};

const INVITE_USAGE = `CODE --user ID ${TWIN_USAGE}`;
export const twinInviteAccept: CliCommand = {
  words: ["twin", "invite", "accept"],
  usage: INVITE_USAGE,
  summary: "A person accepts an invite on a running twin (uses, expiry, bans and target users apply)",
  options: { ...TWIN_OPTIONS, user: { type: "string" } },
  async run(args) {
    const [code, ...rest] = args.positionals;
    if (!code || rest.length > 0) throw new Error(`Usage: twin invite accept ${INVITE_USAGE}`);
    printAnswer(args, await callTwin(args, "POST", `/invites/${encodeURIComponent(code)}/accept`, { user_id: requiredString(args, "user") }));
  },
};

const SAY_USAGE = `--channel ID --user ID --content TEXT ${TWIN_USAGE}`;
export const twinSay: CliCommand = {
  words: ["twin", "say"],
  usage: SAY_USAGE,
  summary: "A person posts a message on a running twin, with their permissions in the channel (bots hear MESSAGE_CREATE)",
  options: { ...TWIN_OPTIONS, channel: { type: "string" }, user: { type: "string" }, content: { type: "string" } },
  async run(args) {
    noPositionals(args, `twin say ${SAY_USAGE}`);
    const body = { user_id: requiredString(args, "user"), content: requiredString(args, "content") };
    printAnswer(args, await callTwin(args, "POST", `/channels/${requiredString(args, "channel")}/messages`, body));
  },
};

const VOICE_USAGE = `--guild ID --user ID (--channel ID | --leave) [--self-mute] [--self-deaf] ${TWIN_USAGE}`;
export const twinVoice: CliCommand = {
  words: ["twin", "voice"],
  usage: VOICE_USAGE,
  summary: "A person joins, moves in or leaves voice on a running twin, as their client would (bots hear VOICE_STATE_UPDATE)",
  options: {
    ...TWIN_OPTIONS,
    guild: { type: "string" },
    user: { type: "string" },
    channel: { type: "string" },
    leave: { type: "boolean" },
    "self-mute": { type: "boolean" },
    "self-deaf": { type: "boolean" },
  },
  async run(args) {
    noPositionals(args, `twin voice ${VOICE_USAGE}`);
    const channel = optionalString(args, "channel");
    const leave = args.values.leave === true;
    if (Boolean(channel) === leave) throw new Error(`One of --channel ID or --leave. Usage: twin voice ${VOICE_USAGE}`);
    const body = { channel_id: channel ?? null, self_mute: args.values["self-mute"] === true, self_deaf: args.values["self-deaf"] === true };
    const path = `/guilds/${requiredString(args, "guild")}/voice-states/${requiredString(args, "user")}`;
    printOutcome(args, await callTwin(args, "PUT", path, body), "Left voice.");
  },
};

const PRESENCE_USAGE = `--user ID --status online|idle|dnd|invisible|offline [--activity NAME]... ${TWIN_USAGE}`;
export const twinPresence: CliCommand = {
  words: ["twin", "presence"],
  usage: PRESENCE_USAGE,
  summary: "A person's presence on a running twin (offline closes their client); bots hear PRESENCE_UPDATE where others see a change",
  options: { ...TWIN_OPTIONS, user: { type: "string" }, status: { type: "string" }, activity: { type: "string", multiple: true } },
  async run(args) {
    noPositionals(args, `twin presence ${PRESENCE_USAGE}`);
    const names = args.values.activity;
    const activities = (Array.isArray(names) ? names : []).filter((name): name is string => typeof name === "string").map((name) => ({ name }));
    const body = { status: requiredString(args, "status"), activities };
    printAnswer(args, await callTwin(args, "PUT", `/users/${requiredString(args, "user")}/presence`, body));
  },
};
