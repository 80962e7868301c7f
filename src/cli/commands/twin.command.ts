import type { CliCommand } from "../command.ts";
import { noPositionals, optionalPositiveInt, optionalString } from "../options.ts";
import { callTwin, printAnswer, TWIN_OPTIONS, TWIN_USAGE } from "../twin-client.ts";

export const twinStart: CliCommand = {
  words: ["twin", "start"],
  usage: "[--port N] [--token TOKEN]",
  summary:
    "A throwaway test twin (REST, CDN, gateway; no dashboard) on a temporary SQLite database and a free port of loopback; " +
    "prints base_url, gateway_url, twin_url, twin_token and fresh credentials as one JSON line, then serves until stopped",
  options: { port: { type: "string" }, token: { type: "string" } },
  async run(args) {
    noPositionals(args, "twin start [--port N] [--token TOKEN]");
    const { startTwinServer } = await import("~/server/twin/twin-server.ts");
    const twin = await startTwinServer({ port: optionalPositiveInt(args, "port"), token: optionalString(args, "token") });
    process.stdout.write(`${JSON.stringify(twin.info)}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => void twin.stop().finally(resolve);
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
    });
  },
};

export const twinStatus: CliCommand = {
  words: ["twin", "status"],
  usage: TWIN_USAGE,
  summary: "A running twin's state: test mode and its clock",
  options: TWIN_OPTIONS,
  async run(args) {
    noPositionals(args, `twin status ${TWIN_USAGE}`);
    printAnswer(args, await callTwin(args, "GET", ""));
  },
};
