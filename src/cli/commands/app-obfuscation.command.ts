import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

const USAGE = "--app <application id> [--on | --off]";

export const appObfuscation: CliCommand = {
  words: ["app", "obfuscation"],
  usage: USAGE,
  summary: "Show whether an app's bot receives channels it cannot view, obfuscated, over the gateway; --on or --off switches it",
  options: { app: { type: "string" }, on: { type: "boolean" }, off: { type: "boolean" } },
  async run(args) {
    noPositionals(args, `app obfuscation ${USAGE}`);
    const applicationId = requiredString(args, "app");
    if (args.values.on && args.values.off) throw new Error("Give --on or --off, not both.");
    const { editApplication } = await import("~/server/applications/application.service.ts");
    const isOn = await withDatabase(async (db) => {
      const read = () => db.application.findUnique({ where: { id: applicationId }, select: { channelObfuscation: true } });
      if (!(await read())) throw new Error(`Unknown application ${applicationId}`);
      if (args.values.on || args.values.off) await editApplication({ db, actor: null }, applicationId, { channelObfuscation: Boolean(args.values.on) });
      return (await read())!.channelObfuscation;
    });
    print(
      isOn
        ? "Channel obfuscation is on: sessions that identify from now on receive hidden channels, obfuscated."
        : "Channel obfuscation is off: hidden channels are not sent (unless IDENTIFY asks with the capability).",
    );
  },
};
