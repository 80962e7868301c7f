import type { z } from "zod";
import type { CliArgs, CliCommand } from "../command.ts";
import { noPositionals, optionalPositiveInt, optionalString } from "../options.ts";
import { callTwin, printAnswer, TWIN_OPTIONS, TWIN_USAGE } from "../twin-client.ts";
import { print } from "../cli-output.ts";

const ADD_USAGE =
  "[--method M] [--route TEMPLATE] [--param name=value]... [--app ID] (--rate-limit SECONDS [--global] | --status 5xx | --delay-ms N) [--times N] [--probability P]";

/** The option a refused field came from, so a refusal names what the operator typed. */
const OPTION_OF: Record<string, string> = {
  "match.method": "method",
  "match.route": "route",
  "match.params": "param",
  "match.application_id": "app",
  "effect.retry_after": "rate-limit",
  "effect.status": "status",
  "effect.ms": "delay-ms",
  "action.code": "code",
  "action.reason": "reason",
  "action.count": "count",
  "match.session_id": "session",
  "match.shard": "shard",
};

/** Checks a body here with the twin's own schema, so a refusal names the option at fault before anything is sent. */
function parseBody<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const optionOf = (path: readonly PropertyKey[]) => OPTION_OF[path.slice(0, 2).join(".")] ?? path.join(".");
  throw new Error(result.error.issues.map((issue) => `--${optionOf(issue.path)}: ${issue.message}`).join("\n"));
}

function optionalNumber(args: CliArgs, name: string): number | undefined {
  const value = optionalString(args, name);
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number)) throw new Error(`--${name} must be a number, got ${JSON.stringify(value)}`);
  return number;
}

/** --param channelId=123 (repeatable) → { channelId: "123" }. */
function paramsOf(args: CliArgs): Record<string, string> | undefined {
  const given = args.values.param;
  if (given === undefined) return undefined;
  const params: Record<string, string> = {};
  for (const pair of (Array.isArray(given) ? given : [given]).map(String)) {
    const equals = pair.indexOf("=");
    if (equals <= 0) throw new Error(`--param takes name=value, got ${JSON.stringify(pair)}`);
    params[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return params;
}

/** Exactly one of --rate-limit, --status, --delay-ms. */
function effectOf(args: CliArgs) {
  const effects = [
    optionalString(args, "rate-limit") !== undefined && {
      type: "rate_limit",
      retry_after: optionalNumber(args, "rate-limit"),
      global: args.values.global === true,
    },
    optionalString(args, "status") !== undefined && { type: "error", status: optionalNumber(args, "status") },
    optionalString(args, "delay-ms") !== undefined && { type: "delay", ms: optionalNumber(args, "delay-ms") },
  ].filter(Boolean);
  if (effects.length !== 1)
    throw new Error(`One effect: --rate-limit SECONDS [--global], --status 500|502|503|504, or --delay-ms N. Usage: twin fault add ${ADD_USAGE}`);
  if (args.values.global === true && optionalString(args, "rate-limit") === undefined) throw new Error("--global goes with --rate-limit");
  return effects[0];
}

export const twinFaultAdd: CliCommand = {
  words: ["twin", "fault", "add"],
  usage: `${ADD_USAGE} ${TWIN_USAGE}`,
  summary:
    "Make a running twin answer matching REST calls with a 429, a 5xx or a delay (the first matching rule wins; --times counts down, a spent rule stays listed)",
  options: {
    ...TWIN_OPTIONS,
    method: { type: "string" },
    route: { type: "string" },
    param: { type: "string", multiple: true },
    app: { type: "string" },
    "rate-limit": { type: "string" },
    global: { type: "boolean" },
    status: { type: "string" },
    "delay-ms": { type: "string" },
    times: { type: "string" },
    probability: { type: "string" },
  },
  async run(args) {
    noPositionals(args, `twin fault add ${ADD_USAGE}`);
    const { ZFaultRuleInputSchema } = await import("~/server/twin/twin-faults.schema.ts");
    const method = optionalString(args, "method")?.toUpperCase();
    const match = { method, route: optionalString(args, "route"), params: paramsOf(args), application_id: optionalString(args, "app") };
    const body = parseBody(ZFaultRuleInputSchema, {
      match,
      effect: effectOf(args),
      times: optionalPositiveInt(args, "times"),
      probability: optionalNumber(args, "probability"),
    });
    printAnswer(args, await callTwin(args, "POST", "/faults", body));
  },
};

export const twinFaultList: CliCommand = {
  words: ["twin", "fault", "list"],
  usage: TWIN_USAGE,
  summary: "A running twin's REST fault rules, with what is left of each and how often each answered",
  options: TWIN_OPTIONS,
  async run(args) {
    noPositionals(args, `twin fault list ${TWIN_USAGE}`);
    printAnswer(args, await callTwin(args, "GET", "/faults"));
  },
};

export const twinFaultRemove: CliCommand = {
  words: ["twin", "fault", "remove"],
  usage: `<id> ${TWIN_USAGE}`,
  summary: "Remove one REST fault rule from a running twin",
  options: TWIN_OPTIONS,
  async run(args) {
    const [id, ...rest] = args.positionals;
    if (!id || rest.length > 0) throw new Error(`Usage: twin fault remove <id> ${TWIN_USAGE}`);
    await callTwin(args, "DELETE", `/faults/${encodeURIComponent(id)}`);
    print(`Removed fault ${id}.`);
  },
};

export const twinFaultClear: CliCommand = {
  words: ["twin", "fault", "clear"],
  usage: TWIN_USAGE,
  summary: "Remove every REST fault rule from a running twin",
  options: TWIN_OPTIONS,
  async run(args) {
    noPositionals(args, `twin fault clear ${TWIN_USAGE}`);
    await callTwin(args, "DELETE", "/faults");
    print("Removed every fault.");
  },
};

const MATCH_USAGE = "[--app ID] [--session ID] [--shard N]";
const MATCH_OPTIONS = { app: { type: "string" }, session: { type: "string" }, shard: { type: "string" } } as const;

/** A gateway fault, sent at once to the live sessions the options reach; prints how many. */
async function gatewayFault(args: CliArgs, usage: string, action: Record<string, unknown>): Promise<void> {
  noPositionals(args, usage);
  const { ZGatewayFaultInputSchema } = await import("~/server/twin/twin-faults.schema.ts");
  const shard = optionalString(args, "shard");
  const match = {
    application_id: optionalString(args, "app"),
    session_id: optionalString(args, "session"),
    shard: shard === undefined ? undefined : Number(shard),
  };
  printAnswer(args, await callTwin(args, "POST", "/gateway/faults", parseBody(ZGatewayFaultInputSchema, { match, action })));
}

function gatewayCommand(
  word: string,
  usage: string,
  summary: string,
  options: NonNullable<CliCommand["options"]>,
  action: (args: CliArgs) => Record<string, unknown>,
): CliCommand {
  const full = `${usage ? `${usage} ` : ""}${MATCH_USAGE} ${TWIN_USAGE}`;
  return {
    words: ["twin", "gateway", word],
    usage: full,
    summary,
    options: { ...TWIN_OPTIONS, ...MATCH_OPTIONS, ...options },
    run: (args) => gatewayFault(args, `twin gateway ${word} ${full}`, action(args)),
  };
}

export const twinGatewayClose = gatewayCommand(
  "close",
  "--code N [--reason TEXT]",
  "Close a running twin's live gateway sessions with a close code (4000–4014 as the platform's table, or 1000–1014); a code that ends sessions ends them",
  { code: { type: "string" }, reason: { type: "string" } },
  (args) => ({ type: "close", code: optionalNumber(args, "code"), reason: optionalString(args, "reason") }),
);

export const twinGatewayReconnect = gatewayCommand(
  "reconnect",
  "",
  "Send op 7 RECONNECT to a running twin's live gateway sessions (they should resume)",
  {},
  () => ({
    type: "reconnect",
  }),
);

export const twinGatewayInvalidSession = gatewayCommand(
  "invalid-session",
  "[--resumable]",
  "Send op 9 INVALID_SESSION to a running twin's live gateway sessions; without --resumable their sessions end and a new IDENTIFY is expected",
  { resumable: { type: "boolean" } },
  (args) => ({ type: "invalid_session", resumable: args.values.resumable === true }),
);

export const twinGatewayDropAcks = gatewayCommand(
  "drop-acks",
  "--count N",
  "Leave the next N heartbeats of a running twin's live gateway sessions unacknowledged, so clients detect a zombie connection and resume",
  { count: { type: "string" } },
  (args) => ({ type: "drop_heartbeat_acks", count: optionalNumber(args, "count") }),
);
