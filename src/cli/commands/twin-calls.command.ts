import type { CliCommand } from "../command.ts";
import { noPositionals, optionalPositiveInt, optionalString, requiredString } from "../options.ts";
import { callTwin, TWIN_OPTIONS, TWIN_USAGE } from "../twin-client.ts";
import { print } from "../cli-output.ts";

const CALLS_USAGE = `--app APPLICATION_ID [--kind rest|gateway] [--status 2xx|4xx|5xx|429] [--limit N] [--follow] ${TWIN_USAGE}`;
const FOLLOW_POLL_MS = 1000;

type Call = {
  id: number;
  at: string;
  kind: "rest" | "gateway";
  method?: string;
  path?: string;
  status?: number;
  duration_ms?: number;
  bucket?: { name: string } | null;
  direction?: "in" | "out";
  op?: number | null;
  t?: string | null;
  close_code?: number;
};

/** One call as a line of a network log: time, kind, what, status or direction, duration, bucket. */
function callLine(call: Call): string {
  const time = call.at.slice(11, 23);
  if (call.kind === "rest")
    return [time, "rest", String(call.status), `${call.method} ${call.path}`, `${call.duration_ms}ms`, call.bucket?.name ?? ""].join("  ").trimEnd();
  const what = call.close_code !== undefined ? `close ${call.close_code}` : `op ${call.op ?? "?"}${call.t ? ` ${call.t}` : ""}`;
  return [time, "gateway", call.direction === "in" ? "<-" : "->", what].join("  ");
}

export const twinCalls: CliCommand = {
  words: ["twin", "calls"],
  usage: CALLS_USAGE,
  summary:
    "What an application's bot and players called (REST requests and gateway frames, oldest first), one line each (JSON with --json); " +
    "--follow prints new calls as they come until stopped",
  options: {
    ...TWIN_OPTIONS,
    app: { type: "string" },
    kind: { type: "string" },
    status: { type: "string" },
    limit: { type: "string" },
    follow: { type: "boolean" },
  },
  async run(args) {
    noPositionals(args, `twin calls ${CALLS_USAGE}`);
    const applicationId = requiredString(args, "app");
    const filters = new URLSearchParams();
    for (const name of ["kind", "status"]) {
      const value = optionalString(args, name);
      if (value) filters.set(name, value);
    }
    const limit = optionalPositiveInt(args, "limit");
    if (limit) filters.set("limit", String(limit));
    const printCalls = (calls: Call[]) => {
      for (const call of calls) print(args.values.json ? JSON.stringify(call) : callLine(call));
    };
    const read = async (after?: number) => {
      const query = new URLSearchParams(filters);
      if (after !== undefined) query.set("after", String(after));
      return (await callTwin(args, "GET", `/applications/${encodeURIComponent(applicationId)}/calls?${query}`)) as { calls: Call[]; next_after: number };
    };
    let page = await read();
    printCalls(page.calls);
    if (!args.values.follow) return;
    const stopped = new Promise<void>((resolve) => process.once("SIGINT", resolve));
    for (;;) {
      const next = await Promise.race([stopped.then(() => null), new Promise<true>((resolve) => setTimeout(() => resolve(true), FOLLOW_POLL_MS))]);
      if (next === null) return;
      page = await read(page.next_after);
      printCalls(page.calls);
    }
  },
};

export const twinCallsClear: CliCommand = {
  words: ["twin", "calls", "clear"],
  usage: `--app APPLICATION_ID ${TWIN_USAGE}`,
  summary: "Forgets every call recorded for an application",
  options: { ...TWIN_OPTIONS, app: { type: "string" } },
  async run(args) {
    noPositionals(args, `twin calls clear --app APPLICATION_ID ${TWIN_USAGE}`);
    await callTwin(args, "DELETE", `/applications/${encodeURIComponent(requiredString(args, "app"))}/calls`);
    print("Cleared.");
  },
};
