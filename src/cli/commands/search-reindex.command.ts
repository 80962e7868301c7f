import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals, requiredString } from "../options.ts";
import { print } from "../cli-output.ts";

export const searchReindex: CliCommand = {
  words: ["search", "reindex"],
  usage: "--guild <guild id>",
  summary: "Rebuild a guild's message search index (searches answer 110000 until it is done)",
  options: { guild: { type: "string" } },
  async run(args) {
    noPositionals(args, "search reindex --guild <guild id>");
    const guildId = requiredString(args, "guild");
    const { requestSearchIndexBuild, runSearchIndexBuild, searchIndexBuildOf } = await import("~/server/messages/message-search-index.ts");
    const indexed = await withDatabase(async (db) => {
      await requestSearchIndexBuild(db, guildId);
      await runSearchIndexBuild(db, guildId);
      // A build taken over or stopped here is finished by a running server's background work.
      if (await searchIndexBuildOf(db, guildId)) return null;
      return db.message.count({ where: { guildId } });
    });
    if (indexed === null) throw new Error(`The index of guild ${guildId} is not rebuilt yet; a running server goes on with it.`);
    print(`Guild ${guildId}: search index rebuilt (${indexed} messages).`);
  },
};
