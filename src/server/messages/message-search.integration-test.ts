import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { makeBot, writeGuildState } from "~/test/factories.ts";
import { MISSING_ACCESS, MISSING_PERMISSIONS, PNG, UNAUTHORIZED } from "~/test/member-kit.ts";
import { bearer } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { webhookKit } from "~/test/webhook-kit.ts";
import { sendMessage } from "./message.service.ts";

// Every answer of these requests is also checked against the platform's guild_search operation (test-app.ts).
const app = useTestApp();
const kit = threadKit(app);
const hooks = webhookKit(app);

const READER = P.ViewChannel | P.ReadMessageHistory | P.SendMessages;

type Api = ReturnType<typeof app.as>;
type Query = Record<string, string | number | boolean | string[]>;

async function allowContent(applicationId: string) {
  await setApprovedIntents({ db: app.db, actor: null }, applicationId, ["MESSAGE_CONTENT"], true);
}

/** A bot-owned guild whose owner holds MESSAGE_CONTENT. */
async function setup() {
  const base = await kit.setup();
  await allowContent(base.owner.application.id);
  return base;
}

/** A bot in the guild with READER through a role, holding MESSAGE_CONTENT. */
async function addReader(guildId: string) {
  const reader = await kit.addBotWithRole(guildId, READER);
  await allowContent(reader.application.id);
  return reader;
}

async function post(api: Api, channelId: string, content: string): Promise<string> {
  const res = await api.post(`/channels/${channelId}/messages`, { content });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

/** Posts a message carrying one file, as multipart. */
async function postFile(token: string, channelId: string, name: string, file: Blob): Promise<string> {
  const form = new FormData();
  form.set("files[0]", file, name);
  const response = await app.dispatch(
    new Request(`http://guildhall.test/api/v10/channels/${channelId}/messages`, { method: "POST", headers: { authorization: `Bot ${token}` }, body: form }),
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

function search(api: Api, guildId: string, query: Query = {}) {
  return api.get(`/guilds/${guildId}/messages/search`, { query });
}

/** The ids of the hits, in the order answered. */
async function found(api: Api, guildId: string, query: Query = {}): Promise<string[]> {
  const res = await search(api, guildId, query);
  expect(res.status).toBe(200);
  return (res.body.messages as { id: string }[][]).map(([message]) => message!.id);
}

describe("GET /guilds/{guild.id}/messages/search", () => {
  it("finds the messages holding every word, by stem, newest first, with total_results and each hit marked", async () => {
    const { guild, text, api } = await setup();
    const late = await post(api, text.id, "The runners were running late");
    const morning = await post(api, text.id, "I run every morning");
    await post(api, text.id, "Cats and dogs");
    const runs = await post(api, text.id, "She runs the build");

    const res = await search(api, guild.id, { content: "running" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_results: 3, threads: [], members: [], doing_deep_historical_index: false });
    expect(res.body.messages.map(([m]: { id: string }[]) => m!.id)).toEqual([runs, morning, late]);
    expect(res.body.messages[0]).toEqual([expect.objectContaining({ id: runs, content: "She runs the build", channel_id: text.id, hit: true })]);

    expect(await found(api, guild.id, { content: "RUN late" })).toEqual([late]);
    expect(await found(api, guild.id, { content: "run", sort_order: "asc" })).toEqual([late, morning, runs]);
    // Query syntax in the text is only text.
    expect(await found(api, guild.id, { content: 'dogs" OR "run*' })).toEqual([]);
    expect(await found(api, guild.id, { content: "dogs NEAR morning" })).toEqual([]);
    expect(await found(api, guild.id, { content: "!!!" })).toEqual([]);
    // No content, or blank: every message, newest first.
    expect((await search(api, guild.id)).body.total_results).toBe(4);
    expect((await found(api, guild.id, { content: " " })).length).toBe(4);
  });

  it("ranks by relevance when asked, whatever sort_order says", async () => {
    const { guild, text, api } = await setup();
    const once = await post(api, text.id, "the deploy of the new build of the service went fine after a long wait");
    const thrice = await post(api, text.id, "deploy deploy deploy failed");
    await post(api, text.id, "nothing to see");
    expect(await found(api, guild.id, { content: "deploy", sort_by: "relevance", sort_order: "asc" })).toEqual([thrice, once]);
    expect(await found(api, guild.id, { content: "deploy", sort_by: "timestamp", sort_order: "asc" })).toEqual([once, thrice]);
  });

  it("filters by author (webhooks by their id), author type, channel, mentions and pinned", async () => {
    const { guild, text, api, owner } = await setup();
    const other = await kit.addChannel(guild.id, ChannelType.GuildText, { name: "other" });
    const reader = await addReader(guild.id);
    const fromOwner = await post(api, text.id, "status report");
    const fromReader = await post(reader.api, other.id, `status of <@${owner.user.id}>`);
    const hook = await hooks.webhook(api, text.id);
    const fromHook = (await app.as().post(`/webhooks/${hook.id}/${hook.token}?wait=true`, { content: "status from CI" })).body.id as string;
    const person = await kit.addUser(guild.id);
    const fromPerson = (
      await sendMessage({ db: app.db, actor: dashboardActor(person.user.id) }, { channelId: text.id, body: { content: "status?" }, files: [] })
    ).id;

    expect(await found(api, guild.id, { author_id: reader.user.id })).toEqual([fromReader]);
    expect(await found(api, guild.id, { author_id: [owner.user.id, hook.id] })).toEqual([fromHook, fromOwner]);
    expect(await found(api, guild.id, { author_type: "webhook" })).toEqual([fromHook]);
    expect(await found(api, guild.id, { author_type: "user" })).toEqual([fromPerson]);
    expect(await found(api, guild.id, { author_type: ["user", "webhook"] })).toEqual([fromPerson, fromHook]);
    expect(await found(api, guild.id, { author_type: "-bot" })).toEqual([fromPerson, fromHook]);
    expect(await found(api, guild.id, { author_type: ["-bot", "-webhook"] })).toEqual([fromPerson]);
    expect(await found(api, guild.id, { channel_id: other.id })).toEqual([fromReader]);
    expect(await found(api, guild.id, { channel_id: [other.id, text.id], content: "status", author_type: "bot" })).toEqual([fromReader, fromOwner]);
    expect(await found(api, guild.id, { mentions: owner.user.id })).toEqual([fromReader]);
    expect(await found(api, guild.id, { min_id: fromReader, max_id: fromPerson })).toEqual([fromHook]);

    await writeGuildState(app.db, guild.id, (tx) => tx.message.update({ where: { id: fromOwner }, data: { pinned: true } }));
    expect(await found(api, guild.id, { pinned: true })).toEqual([fromOwner]);
    expect(await found(api, guild.id, { pinned: "false", content: "status" })).toEqual([fromPerson, fromHook, fromReader]);
  });

  it("filters by what messages have: links, embeds, files of a kind, polls; `-` excludes", async () => {
    const { guild, text, api, owner } = await setup();
    const plain = await post(api, text.id, "just words");
    const link = await post(api, text.id, "see https://example.com/notes");
    const embed = (await api.post(`/channels/${text.id}/messages`, { embeds: [{ title: "Report" }] })).body.id as string;
    const poll = (await api.post(`/channels/${text.id}/messages`, { poll: { question: { text: "Lunch?" }, answers: [{ poll_media: { text: "Soup" } }] } })).body
      .id as string;
    const image = await postFile(owner.token, text.id, "dot.png", new Blob([Buffer.from(PNG.split(",")[1]!, "base64")], { type: "image/png" }));
    const notes = await postFile(owner.token, text.id, "notes.txt", new Blob(["hello"], { type: "text/plain" }));
    expect(await found(api, guild.id, { has: "file" })).toEqual([notes, image]);
    expect(await found(api, guild.id, { has: "image" })).toEqual([image]);
    expect(await found(api, guild.id, { has: ["file", "-image"] })).toEqual([notes]);
    expect(await found(api, guild.id, { has: "link" })).toEqual([link]);
    expect(await found(api, guild.id, { has: "embed" })).toEqual([embed]);
    expect(await found(api, guild.id, { has: "poll" })).toEqual([poll]);
    expect(await found(api, guild.id, { has: ["-link", "-embed", "-poll", "-file"] })).toEqual([plain]);
    expect(await found(api, guild.id, { has: "sticker" })).toEqual([]);
  });

  it("never searches channels or threads the caller cannot read, and refuses to be pointed at them", async () => {
    const { guild, text, api } = await setup();
    await kit.setEveryone(guild.id, 0n);
    const reader = await addReader(guild.id);
    const hidden = await kit.addChannel(guild.id, ChannelType.GuildText, { name: "staff" });
    await kit.addOverwrite(hidden.id, guild.id, { id: reader.role.id, type: 0, deny: P.ViewChannel });
    const noHistory = await kit.addChannel(guild.id, ChannelType.GuildText, { name: "no-history" });
    await kit.addOverwrite(noHistory.id, guild.id, { id: reader.role.id, type: 0, deny: P.ReadMessageHistory });
    const open = await post(api, text.id, "plans for friday");
    const secret = await post(api, hidden.id, "secret plans");
    await post(api, noHistory.id, "plans without history");
    const publicThread = (await api.post(`/channels/${text.id}/threads`, { name: "planning", type: ChannelType.PublicThread })).body;
    const inThread = await post(api, publicThread.id, "thread plans");
    const privateThread = (await api.post(`/channels/${text.id}/threads`, { name: "quiet", type: ChannelType.PrivateThread })).body;
    await post(api, privateThread.id, "private plans");

    const seen = await search(reader.api, guild.id, { content: "plans" });
    expect(seen.body.total_results).toBe(2);
    expect(seen.body.messages.map(([m]: { id: string }[]) => m!.id)).toEqual([inThread, open]);
    expect(seen.body.threads).toHaveLength(1);
    expect(seen.body.threads[0]).toMatchObject({ id: publicThread.id, parent_id: text.id, type: ChannelType.PublicThread });
    kit.expectThreadObject(seen.body.threads[0]);
    // Thread members: only for threads the caller joined.
    expect(seen.body.members).toEqual([]);
    expect((await reader.api.put(`/channels/${publicThread.id}/thread-members/@me`)).status).toBe(204);
    const joined = await search(reader.api, guild.id, { content: "plans" });
    expect(joined.body.members).toEqual([expect.objectContaining({ id: publicThread.id, user_id: reader.user.id })]);

    // The owner reads everything.
    expect((await search(api, guild.id, { content: "plans" })).body.total_results).toBe(5);
    expect(await found(api, guild.id, { channel_id: hidden.id })).toEqual([secret]);

    expect((await search(reader.api, guild.id, { channel_id: hidden.id })).body).toEqual(MISSING_ACCESS);
    expect((await search(reader.api, guild.id, { channel_id: [text.id, privateThread.id] })).body).toEqual(MISSING_ACCESS);
    expect((await search(reader.api, guild.id, { channel_id: noHistory.id })).body).toEqual(MISSING_PERMISSIONS);
    const elsewhere = await kit.setup();
    const unknown = await search(reader.api, guild.id, { channel_id: elsewhere.text.id });
    expect([unknown.status, unknown.body.code]).toEqual([404, 10003]);
    expect(await found(reader.api, guild.id, { channel_id: publicThread.id })).toEqual([inThread]);
  });

  it("leaves age-restricted channels out unless include_nsfw or named", async () => {
    const { guild, text, api } = await setup();
    const nsfw = await kit.addChannel(guild.id, ChannelType.GuildText, { name: "after-dark", nsfw: true });
    const safe = await post(api, text.id, "night owls");
    const late = await post(api, nsfw.id, "night shift");
    expect(await found(api, guild.id, { content: "night" })).toEqual([safe]);
    expect(await found(api, guild.id, { content: "night", include_nsfw: true })).toEqual([late, safe]);
    expect(await found(api, guild.id, { content: "night", channel_id: nsfw.id })).toEqual([late]);
  });

  it("pages with limit and offset while total_results counts every match", async () => {
    const { guild, text, api } = await setup();
    const ids: string[] = [];
    for (let n = 1; n <= 7; n++) ids.push(await post(api, text.id, `page ${n}`));
    const newest = [...ids].reverse();
    const page = async (offset: number) => {
      const res = await search(api, guild.id, { content: "page", limit: 3, offset });
      expect(res.body.total_results).toBe(7);
      return (res.body.messages as { id: string }[][]).map(([m]) => m!.id);
    };
    expect(await page(0)).toEqual(newest.slice(0, 3));
    expect(await page(3)).toEqual(newest.slice(3, 6));
    expect(await page(6)).toEqual(newest.slice(6));
    expect(await page(9)).toEqual([]);
    // 25 by default.
    for (let n = 8; n <= 27; n++) await post(api, text.id, `page ${n}`);
    expect(await found(api, guild.id, { content: "page" })).toHaveLength(25);
  });

  it("refuses bad parameters with 50035 naming each field", async () => {
    const { guild, api } = await setup();
    const errorsOf = async (query: Query) => {
      const res = await search(api, guild.id, query);
      expect([res.status, res.body.code]).toEqual([400, 50035]);
      return res.body.errors as Record<string, any>;
    };
    expect((await errorsOf({ limit: 0 })).limit._errors[0].code).toBe("NUMBER_TYPE_MIN");
    expect((await errorsOf({ limit: 26 })).limit._errors[0].code).toBe("NUMBER_TYPE_MAX");
    expect((await errorsOf({ limit: "many" })).limit._errors[0].code).toBe("NUMBER_TYPE_COERCE");
    expect((await errorsOf({ offset: 9976 })).offset._errors[0].code).toBe("NUMBER_TYPE_MAX");
    expect((await errorsOf({ content: "x".repeat(1025) })).content._errors[0].code).toBe("BASE_TYPE_MAX_LENGTH");
    expect(Object.keys((await errorsOf({ author_id: ["1", "me"] })).author_id)).toEqual(["1"]);
    expect((await errorsOf({ author_id: Array.from({ length: 101 }, (_, i) => String(i + 1)) })).author_id._errors[0].code).toBe("BASE_TYPE_MAX_LENGTH");
    expect((await errorsOf({ channel_id: Array.from({ length: 501 }, (_, i) => String(i + 1)) })).channel_id._errors[0].code).toBe("BASE_TYPE_MAX_LENGTH");
    expect((await errorsOf({ author_type: "robot" })).author_type["0"]._errors[0].code).toBe("BASE_TYPE_CHOICES");
    expect((await errorsOf({ has: "-gif" })).has["0"]._errors[0].code).toBe("BASE_TYPE_CHOICES");
    expect((await errorsOf({ sort_by: "date" })).sort_by._errors[0].code).toBe("BASE_TYPE_CHOICES");
    expect((await errorsOf({ sort_order: "up" })).sort_order._errors[0].code).toBe("BASE_TYPE_CHOICES");
    expect((await errorsOf({ pinned: "maybe" })).pinned._errors[0].code).toBe("BOOLEAN_TYPE_CONVERT");
    expect(Object.keys(await errorsOf({ limit: 0, min_id: "soon" })).sort()).toEqual(["limit", "min_id"]);
  });

  it("needs the MESSAGE_CONTENT intent of bots (50001 without it), membership, and a bot token", async () => {
    const { guild, text, api } = await setup();
    await post(api, text.id, "hello there");
    const member = await kit.addBotWithRole(guild.id, READER);
    expect((await search(member.api, guild.id, { content: "hello" })).body).toEqual(MISSING_ACCESS);
    await allowContent(member.application.id);
    expect((await search(member.api, guild.id, { content: "hello" })).body.total_results).toBe(1);

    const outsider = await makeBot(app.db);
    await allowContent(outsider.application.id);
    expect((await search(app.as(`Bot ${outsider.token}`), guild.id)).body).toEqual(MISSING_ACCESS);
    const unknown = await search(api, "1234567890123456789");
    expect([unknown.status, unknown.body.code]).toEqual([404, 10004]);
    const person = await kit.addUser(guild.id);
    const asBearer = await app.as(bearer(person.token)).get(`/guilds/${guild.id}/messages/search`);
    expect([asBearer.status, asBearer.body]).toEqual([401, UNAUTHORIZED]);
  });

  it("answers the dashboard through tRPC with the same search, the user's own permissions applied", async () => {
    const { guild, text, api } = await setup();
    await kit.setEveryone(guild.id, 0n);
    const hidden = await kit.addChannel(guild.id, ChannelType.GuildText, { name: "staff" });
    const open = await post(api, text.id, "release notes");
    await post(api, hidden.id, "release secrets");
    const role = await kit.addRole(guild.id, 3, { permissions: READER });
    await kit.addOverwrite(hidden.id, guild.id, { id: role.id, type: 0, deny: P.ViewChannel });
    const person = await kit.addUser(guild.id, [role.id]);
    const caller = createCaller({ db: app.db, userId: person.user.id });
    const answer = await caller.message.search({ guildId: guild.id, query: { content: "release", limit: 10 } });
    expect(answer).toMatchObject({ total_results: 1, messages: [[{ id: open, content: "release notes", hit: true }]] });
    await expect(caller.message.search({ guildId: guild.id, query: { limit: 99 } })).rejects.toThrow();
  });
});
