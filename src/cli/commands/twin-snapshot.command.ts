import type { CliArgs, CliCommand } from "../command.ts";
import { noPositionals, optionalString } from "../options.ts";
import { callTwin, printAnswer, TWIN_OPTIONS, TWIN_USAGE } from "../twin-client.ts";

/** The one snapshot id a command names, as its only positional. */
function snapshotId(args: CliArgs, usage: string): string {
  const [id, ...rest] = args.positionals;
  if (!id || rest.length > 0) throw new Error(`Name one snapshot. Usage: ${usage}`);
  return encodeURIComponent(id);
}

export const twinSnapshot: CliCommand = {
  words: ["twin", "snapshot"],
  usage: `[--name NAME] ${TWIN_USAGE}`,
  summary: "Takes a snapshot of a running twin's whole state (SQLite) and prints its id, to restore later",
  options: { ...TWIN_OPTIONS, name: { type: "string" } },
  async run(args) {
    noPositionals(args, `twin snapshot [--name NAME] ${TWIN_USAGE}`);
    const name = optionalString(args, "name");
    printAnswer(args, await callTwin(args, "POST", "/snapshots", name === undefined ? {} : { name }));
  },
};

export const twinSnapshotList: CliCommand = {
  words: ["twin", "snapshot", "list"],
  usage: TWIN_USAGE,
  summary: "A running twin's snapshots, oldest first",
  options: TWIN_OPTIONS,
  async run(args) {
    noPositionals(args, `twin snapshot list ${TWIN_USAGE}`);
    printAnswer(args, await callTwin(args, "GET", "/snapshots"));
  },
};

export const twinSnapshotRestore: CliCommand = {
  words: ["twin", "snapshot", "restore"],
  usage: `ID ${TWIN_USAGE}`,
  summary: "Puts a running twin back as the snapshot found it (its clock too); its gateway clients are told to reconnect",
  options: TWIN_OPTIONS,
  async run(args) {
    const id = snapshotId(args, `twin snapshot restore ID ${TWIN_USAGE}`);
    printAnswer(args, await callTwin(args, "POST", `/snapshots/${id}/restore`));
  },
};

export const twinSnapshotDelete: CliCommand = {
  words: ["twin", "snapshot", "delete"],
  usage: `ID ${TWIN_USAGE}`,
  summary: "Deletes one of a running twin's snapshots",
  options: TWIN_OPTIONS,
  async run(args) {
    const id = snapshotId(args, `twin snapshot delete ID ${TWIN_USAGE}`);
    await callTwin(args, "DELETE", `/snapshots/${id}`);
    printAnswer(args, { deleted: decodeURIComponent(id) });
  },
};
