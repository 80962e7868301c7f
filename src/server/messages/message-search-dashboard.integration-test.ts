import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { useTestApp } from "~/test/test-app.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { requestSearchIndexBuild } from "./message-search-index.ts";
import { sendMessage } from "./message.service.ts";

const app = useTestApp();
const kit = threadKit(app);

const READER = P.ViewChannel | P.ReadMessageHistory;

/** A guild whose @everyone may do nothing, with #general, a second channel #ops and a channel only moderators see. */
async function setup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, 0n);
  const ops = await kit.addChannel(base.guild.id, ChannelType.GuildText, { name: "ops" });
  const secret = await kit.addChannel(base.guild.id, ChannelType.GuildText, { name: "mods-only" });
  const post = async (channelId: string, content: string) => (await base.api.post(`/channels/${channelId}/messages`, { content })).body.id as string;
  return { ...base, ops, secret, post };
}

async function userWith(guildId: string, permissions: bigint) {
  const role = await kit.addRole(guildId, 3, { permissions });
  const member = await kit.addUser(guildId, [role.id]);
  return { ...member, role, caller: createCaller({ db: app.db, userId: member.user.id }) };
}

describe("message.searchPage (dashboard search)", () => {
  it("finds the words in every channel the user can read, naming each hit's channel, and pages by 25", async () => {
    const { guild, text, ops, secret, post } = await setup();
    const inGeneral = await post(text.id, "the failover finished");
    const inOps = await post(ops.id, "failover drill tomorrow");
    await post(ops.id, "cache warmed");
    await post(secret.id, "failover of the secret database");
    const reader = await userWith(guild.id, READER);
    await kit.addOverwrite(secret.id, guild.id, { id: reader.role.id, type: 0, deny: P.ViewChannel });

    const page = await reader.caller.message.searchPage({ guildId: guild.id, query: { content: "failover" } });
    expect(page.state).toBe("results");
    if (page.state !== "results") return;
    expect(page.total).toBe(2);
    expect(page.hits.map((hit) => [hit.id, hit.channel, hit.canDelete])).toEqual([
      [inOps, { id: ops.id, name: "ops", isThread: false }, false],
      [inGeneral, { id: text.id, name: "general", isThread: false }, false],
    ]);
    expect(page.pages).toBe(1);

    const onlyOps = await reader.caller.message.searchPage({ guildId: guild.id, query: { content: "failover", channel_id: [ops.id] } });
    expect(onlyOps.state === "results" && onlyOps.hits.map((hit) => hit.content)).toEqual(["failover drill tomorrow"]);
    const nobody = await reader.caller.message.searchPage({ guildId: guild.id, query: { content: "earthquake" } });
    expect(nobody).toMatchObject({ state: "results", total: 0, hits: [] });

    for (let n = 0; n < 26; n++) await post(text.id, `status ${n}`);
    const second = await reader.caller.message.searchPage({ guildId: guild.id, query: { content: "status" }, page: 2 });
    expect(second.state === "results" && [second.total, second.pages, second.hits.map((hit) => hit.content)]).toEqual([26, 2, ["status 0"]]);
  });

  it("lets a moderator delete any hit and an author their own, filtered by author", async () => {
    const { guild, text, post } = await setup();
    await post(text.id, "deploy started");
    const moderator = await userWith(guild.id, READER | P.ManageMessages);
    const author = await userWith(guild.id, READER | P.SendMessages);
    const { id: own } = await sendMessage(
      { db: app.db, actor: dashboardActor(author.user.id) },
      { channelId: text.id, body: { content: "deploy looks fine" }, files: [] },
    );

    const forModerator = await moderator.caller.message.searchPage({ guildId: guild.id, query: { content: "deploy" } });
    expect(forModerator.state === "results" && forModerator.hits.map((hit) => hit.canDelete)).toEqual([true, true]);
    const forAuthor = await author.caller.message.searchPage({ guildId: guild.id, query: { content: "deploy" } });
    expect(forAuthor.state === "results" && forAuthor.hits.map((hit) => [hit.id === own, hit.canDelete])).toEqual([
      [true, true],
      [false, false],
    ]);
    const byAuthor = await moderator.caller.message.searchPage({ guildId: guild.id, query: { content: "deploy", author_id: [author.user.id] } });
    expect(byAuthor.state === "results" && byAuthor.hits.map((hit) => hit.id)).toEqual([own]);
  });

  it("answers how far the index got while it is being built, and refuses a channel the user cannot see", async () => {
    const { guild, text, secret, post } = await setup();
    await post(text.id, "hello");
    const reader = await userWith(guild.id, READER);
    await kit.addOverwrite(secret.id, guild.id, { id: reader.role.id, type: 0, deny: P.ViewChannel });
    await requestSearchIndexBuild(app.db, guild.id);
    expect(await reader.caller.message.searchPage({ guildId: guild.id, query: { content: "hello" } })).toEqual({
      state: "indexing",
      documentsIndexed: 0,
      retryAfter: 2,
    });
    await expect(reader.caller.message.searchPage({ guildId: guild.id, query: { content: "hello", channel_id: [secret.id] } })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });
});
