import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

export const voiceJoin: CliCommand = {
  words: ["voice", "join"],
  usage: "--user <user id> --channel <voice channel id> [--self-mute] [--self-deaf]",
  summary: "Put a member in a voice channel (as the gateway will), for tests and demos",
  options: { user: { type: "string" }, channel: { type: "string" }, "self-mute": { type: "boolean" }, "self-deaf": { type: "boolean" } },
  async run(args) {
    noPositionals(args, "voice join --user <user id> --channel <voice channel id>");
    const userId = requiredString(args, "user");
    const channelId = requiredString(args, "channel");
    const { joinVoice } = await import("~/server/members/voice.service.ts");
    await withDatabase((db) =>
      joinVoice({ db, actor: null }, { userId, channelId, selfMute: args.values["self-mute"] === true, selfDeaf: args.values["self-deaf"] === true }),
    );
    print(`User ${userId} is in voice channel ${channelId}.`);
  },
};

export const voiceLeave: CliCommand = {
  words: ["voice", "leave"],
  usage: "--user <user id> --guild <guild id>",
  summary: "Disconnect a member from voice in a guild",
  options: { user: { type: "string" }, guild: { type: "string" } },
  async run(args) {
    noPositionals(args, "voice leave --user <user id> --guild <guild id>");
    const userId = requiredString(args, "user");
    const guildId = requiredString(args, "guild");
    const { leaveVoice } = await import("~/server/members/voice.service.ts");
    const left = await withDatabase((db) => leaveVoice({ db, actor: null }, { userId, guildId }));
    print(left ? `User ${userId} left voice.` : `User ${userId} was not in voice in guild ${guildId}.`);
  },
};
