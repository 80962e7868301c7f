import { DiscordAPIError, makeURLSearchParams } from "@discordjs/rest";
import {
  ChannelType,
  Routes,
  type APIChannel,
  type APIGuild,
  type APIMessageSearchIndexNotReadyResponse,
  type APIMessageSearchResult,
  type APIRole,
  type APIUser,
  type RESTGetAPICurrentUserGuildsResult,
  type RESTGetAPIGuildMessagesSearchQuery,
} from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { requestSearchIndexBuild } from "~/server/messages/message-search-index.ts";
import { makeBot, makeGuild } from "~/test/factories.ts";
import { useLibraryServer } from "~/test/library-server.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
// The platform's own client library, unchanged, pointed at Guildhall over HTTP.
const library = useLibraryServer(app);

describe("@discordjs/rest against Guildhall", () => {
  it("reads and changes a guild with a bot token, including the @me alias", async () => {
    const bot = await makeBot(app.db);
    const guild = await makeGuild(app.db, bot.actor);
    const rest = library.client(bot.token);
    const me = (await rest.get(Routes.user())) as APIUser;
    expect(me.id).toBe(bot.user.id);
    const fetched = (await rest.get(Routes.guild(guild.id), { query: new URLSearchParams({ with_counts: "true" }) })) as APIGuild;
    expect(fetched.approximate_member_count).toBe(1);
    const renamed = (await rest.patch(Routes.guild(guild.id), { body: { name: "Via library" }, reason: "renamed by a library" })) as APIGuild;
    expect(renamed.name).toBe("Via library");
    const entry = await app.db.auditLogEntry.findFirst({ where: { guildId: guild.id, actionType: 1 } });
    expect(entry?.reason).toBe("renamed by a library");
    const role = (await rest.post(Routes.guildRoles(guild.id), { body: { name: "Library role", permissions: "0" } })) as APIRole;
    expect(role.name).toBe("Library role");
    const guilds = (await rest.get(Routes.userGuilds())) as RESTGetAPICurrentUserGuildsResult;
    expect(guilds.map((g) => g.id)).toContain(guild.id);
  });

  it("searches a guild's messages with lists sent as repeated parameters, and reads the 110000 answer while the index is built", async () => {
    const bot = await makeBot(app.db);
    const guild = await makeGuild(app.db, bot.actor);
    await setApprovedIntents({ db: app.db, actor: null }, bot.application.id, ["MESSAGE_CONTENT"], true);
    const rest = library.client(bot.token);
    const channels = (await rest.get(Routes.guildChannels(guild.id))) as APIChannel[];
    const text = channels.find((channel) => channel.type === ChannelType.GuildText)!;
    await rest.post(Routes.channelMessages(text.id), { body: { content: "hello from the library" } });
    await rest.post(Routes.channelMessages(text.id), { body: { content: "something else" } });
    const path = `/guilds/${guild.id}/messages/search` as const;
    const query: RESTGetAPIGuildMessagesSearchQuery = { content: "hello", author_id: [bot.user.id, "1"], channel_id: [text.id], limit: 5 };
    const found = (await rest.get(path, { query: makeURLSearchParams(query) })) as APIMessageSearchResult;
    expect(found.total_results).toBe(1);
    expect(found.messages[0]![0]!.content).toBe("hello from the library");

    await requestSearchIndexBuild(app.db, guild.id);
    const pending = (await rest.get(path, { query: makeURLSearchParams(query) })) as APIMessageSearchIndexNotReadyResponse;
    expect(pending).toMatchObject({ code: 110000, retry_after: 2 });
  });

  it("surfaces the platform error envelope as DiscordAPIError", async () => {
    const bot = await makeBot(app.db);
    const guild = await makeGuild(app.db, bot.actor);
    const rest = library.client(bot.token);
    const invalid = await rest.patch(Routes.guild(guild.id), { body: { name: "x" } }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(DiscordAPIError);
    expect((invalid as DiscordAPIError).code).toBe(50035);
    expect((invalid as DiscordAPIError).status).toBe(400);
    expect((invalid as DiscordAPIError).message).toContain("name[BASE_TYPE_BAD_LENGTH]");
    const unknown = await rest.get(Routes.guild("1")).catch((error: unknown) => error);
    expect((unknown as DiscordAPIError).code).toBe(10004);
  });
});
