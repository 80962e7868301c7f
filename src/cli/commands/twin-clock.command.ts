import type { CliArgs, CliCommand } from "../command.ts";
import { noPositionals } from "../options.ts";
import { callTwin, printAnswer, TWIN_OPTIONS, TWIN_USAGE } from "../twin-client.ts";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const AMOUNTS = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+$/;
const AMOUNT = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g;

/**
 * A duration as people write it, in whole milliseconds: a bare number is milliseconds
 * ("1500"); otherwise amounts with units, one or several ("90s", "15m", "2h", "7d", "1h30m",
 * "7d1s", "1.5h"). Throws on anything else, or on a duration that is not positive.
 */
export function parseDuration(text: string): number {
  const input = text.trim().toLowerCase();
  let ms = NaN;
  if (/^\d+$/.test(input)) ms = Number(input);
  else if (AMOUNTS.test(input)) ms = [...input.matchAll(AMOUNT)].reduce((sum, [, amount, unit]) => sum + Number(amount) * UNIT_MS[unit!]!, 0);
  ms = Math.round(ms);
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new Error(`Not a duration: ${JSON.stringify(text)}. Write milliseconds (1500) or amounts with units ms, s, m, h, d, w (90s, 15m, 2h, 7d, 1h30m)`);
  return ms;
}

/** The one positional a command takes, or a usage error. */
function onePositional(args: CliArgs, usage: string): string {
  if (args.positionals.length !== 1) throw new Error(`Usage: ${usage}`);
  return args.positionals[0]!;
}

/** Moves or freezes the twin's clock; the twin answers after running the sweeps that came due. */
async function moveClock(args: CliArgs, body: Record<string, unknown>): Promise<void> {
  printAnswer(args, await callTwin(args, "POST", "/clock", body));
}

export const twinClock: CliCommand = {
  words: ["twin", "clock"],
  usage: TWIN_USAGE,
  summary: "A running twin's clock: now, whether it is frozen, and how far it is from real time",
  options: TWIN_OPTIONS,
  async run(args) {
    noPositionals(args, `twin clock ${TWIN_USAGE} (or twin clock advance|set|freeze|unfreeze)`);
    printAnswer(args, await callTwin(args, "GET", "/clock"));
  },
};

export const twinClockAdvance: CliCommand = {
  words: ["twin", "clock", "advance"],
  usage: `DURATION ${TWIN_USAGE}`,
  summary: "Moves a twin's clock forward (DURATION: ms, or 90s, 15m, 2h, 7d, 1h30m), then runs every sweep that came due (expired invites, idle lobbies, …)",
  options: TWIN_OPTIONS,
  async run(args) {
    await moveClock(args, { advance_ms: parseDuration(onePositional(args, `twin clock advance DURATION ${TWIN_USAGE}`)) });
  },
};

export const twinClockSet: CliCommand = {
  words: ["twin", "clock", "set"],
  usage: `ISO-8601 ${TWIN_USAGE}`,
  summary: "Puts a twin's clock at a later time (e.g. 2030-01-01T00:00:00Z), then runs every sweep that came due",
  options: TWIN_OPTIONS,
  async run(args) {
    await moveClock(args, { set: onePositional(args, `twin clock set ISO-8601 ${TWIN_USAGE}`) });
  },
};

export const twinClockFreeze: CliCommand = {
  words: ["twin", "clock", "freeze"],
  usage: TWIN_USAGE,
  summary: "Stops a twin's clock where it is (it moves only when advanced or set)",
  options: TWIN_OPTIONS,
  async run(args) {
    noPositionals(args, `twin clock freeze ${TWIN_USAGE}`);
    await moveClock(args, { frozen: true });
  },
};

export const twinClockUnfreeze: CliCommand = {
  words: ["twin", "clock", "unfreeze"],
  usage: TWIN_USAGE,
  summary: "Lets a twin's clock run on from where it stands",
  options: TWIN_OPTIONS,
  async run(args) {
    noPositionals(args, `twin clock unfreeze ${TWIN_USAGE}`);
    await moveClock(args, { frozen: false });
  },
};
