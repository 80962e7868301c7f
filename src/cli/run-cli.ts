import { parseArgs } from "node:util";
import type { CliCommand } from "./command.ts";
import { print, printError, withOutput, type CliOutput } from "./cli-output.ts";
import { dbGenerate } from "./commands/db-generate.command.ts";
import { dbMigrate } from "./commands/db-migrate.command.ts";
import { dbMigrationCreate } from "./commands/db-migration-create.command.ts";
import { appCreate } from "./commands/app-create.command.ts";
import { appToken } from "./commands/app-token.command.ts";
import { appIntents } from "./commands/app-intents.command.ts";
import { appLimits } from "./commands/app-limits.command.ts";
import { appObfuscation } from "./commands/app-obfuscation.command.ts";
import { appOauth2 } from "./commands/app-oauth2.command.ts";
import { voiceJoin, voiceLeave } from "./commands/voice.command.ts";
import { integrationAdd, integrationList } from "./commands/integration.command.ts";
import { connectionAdd, connectionList, connectionRemove } from "./commands/connection.command.ts";
import { bootstrap } from "./commands/bootstrap.command.ts";
import { searchReindex } from "./commands/search-reindex.command.ts";
import { seed } from "./commands/seed.command.ts";
import { tokenCreate } from "./commands/token-create.command.ts";
import { tokenRevoke } from "./commands/token-revoke.command.ts";
import { userCreate } from "./commands/user-create.command.ts";
import { userPrivacy } from "./commands/user-privacy.command.ts";
import { userBan } from "./commands/user-ban.command.ts";
import { appIdentityProvider } from "./commands/app-identity-provider.command.ts";
import { twinStatus } from "./commands/twin.command.ts";
import {
  twinFaultAdd,
  twinFaultClear,
  twinFaultList,
  twinFaultRemove,
  twinGatewayClose,
  twinGatewayDropAcks,
  twinGatewayInvalidSession,
  twinGatewayReconnect,
} from "./commands/twin-faults.command.ts";
import { twinInviteAccept, twinMemberAdd, twinMemberRemove, twinPresence, twinSay, twinUserCreate, twinVoice } from "./commands/twin-people.command.ts";
import { twinSnapshot, twinSnapshotDelete, twinSnapshotList, twinSnapshotRestore } from "./commands/twin-snapshot.command.ts";
import { twinClock, twinClockAdvance, twinClockFreeze, twinClockSet, twinClockUnfreeze } from "./commands/twin-clock.command.ts";
import { twinCalls, twinCallsClear } from "./commands/twin-calls.command.ts";

/** Every command; a new one is a file in ./commands exporting a CliCommand, listed here. */
const commands: readonly CliCommand[] = [
  dbMigrate,
  dbGenerate,
  dbMigrationCreate,
  seed,
  userCreate,
  userPrivacy,
  userBan,
  appCreate,
  appToken,
  appIntents,
  appLimits,
  appObfuscation,
  appIdentityProvider,
  appOauth2,
  tokenCreate,
  tokenRevoke,
  voiceJoin,
  voiceLeave,
  integrationAdd,
  integrationList,
  connectionAdd,
  connectionList,
  connectionRemove,
  searchReindex,
  bootstrap,
  twinStatus,
  twinFaultAdd,
  twinFaultList,
  twinFaultRemove,
  twinFaultClear,
  twinGatewayClose,
  twinGatewayReconnect,
  twinGatewayInvalidSession,
  twinGatewayDropAcks,
  twinUserCreate,
  twinMemberAdd,
  twinMemberRemove,
  twinInviteAccept,
  twinSay,
  twinVoice,
  twinPresence,
  twinSnapshot,
  twinSnapshotList,
  twinSnapshotRestore,
  twinSnapshotDelete,
  twinClock,
  twinClockAdvance,
  twinClockSet,
  twinClockFreeze,
  twinClockUnfreeze,
  twinCalls,
  twinCallsClear,
];

function findCommand(argv: readonly string[]): CliCommand | undefined {
  const matches = commands.filter((command) => command.words.every((word, i) => argv[i] === word));
  return matches.sort((a, b) => b.words.length - a.words.length)[0];
}

function help(): string {
  const usages = commands.map((command) => [...command.words, command.usage ?? ""].join(" ").trim());
  const width = Math.max(...usages.map((usage) => usage.length)) + 2;
  const lines = commands.map((command, i) => `  ${usages[i]!.padEnd(width)}${command.summary}`);
  return ["Usage: npm run cli -- <command>", "", "Commands:", ...lines].join("\n");
}

async function dispatch(argv: readonly string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === "help" || argv[0] === "--help" || argv[0] === "-h") {
    print(help());
    return 0;
  }
  const command = findCommand(argv);
  if (!command) {
    printError(`Unknown command: ${argv.join(" ")}\n\n${help()}`);
    return 1;
  }
  const { positionals, values } = parseArgs({
    args: argv.slice(command.words.length),
    options: command.options ?? {},
    allowPositionals: true,
    strict: true,
  });
  await command.run({ positionals, values });
  return 0;
}

/**
 * Runs the command `argv` names and answers its exit code; a command's failure is printed as
 * one "Error:" line. Its lines go to `output`, by default the process's stdout and stderr.
 */
export function runCli(argv: readonly string[], output?: CliOutput): Promise<number> {
  return withOutput(output, async () => {
    try {
      return await dispatch(argv);
    } catch (error) {
      printError(`Error: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
  });
}
