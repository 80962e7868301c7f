import type { CliCommand } from "../command.ts";
import { noPositionals } from "../options.ts";
import { callTwin, printAnswer, TWIN_OPTIONS, TWIN_USAGE } from "../twin-client.ts";

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
