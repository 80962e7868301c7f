import {
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayIntentBits as I,
  GatewayOpcodes,
  type GatewayGuildMembersChunkDispatchData,
  type GatewayRateLimitedDispatchData,
} from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addMember, addPresences, makeBot, seedMembers } from "~/test/factories.ts";
import { botInGuilds, identified, useGatewayServer, type Frame, type GatewayClient } from "~/test/gateway-kit.ts";
import { bot as botAuth } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createEventRouter } from "../event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "../session-start-limit.ts";

// The platform's own rate limits (scale 1): one whole-guild request per guild per bot every 30 s.
const app = useTestApp({ rateLimitScale: 1 });
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } },
});

type Chunk = GatewayGuildMembersChunkDispatchData;

const isChunk = (frame: Frame, nonce?: string) => frame.op === 0 && frame.t === GatewayDispatchEvents.GuildMembersChunk && (frame.d as Chunk).nonce === nonce;

/** Every chunk answering the request with this nonce, up to the one whose index is chunk_count - 1. */
async function chunksOf(client: GatewayClient, nonce?: string): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for (;;) {
    const chunk = (await client.waitFor((frame) => isChunk(frame, nonce), `a chunk for ${nonce}`)).d as Chunk;
    chunks.push(chunk);
    if (chunk.chunk_index === chunk.chunk_count - 1) return chunks;
  }
}

/** A bot in one guild with these people as members too, identified with `intents` (privileged ones approved). */
async function botWithMembers(people: { username: string; nick?: string }[], intents = I.Guilds | I.GuildMembers) {
  const { owner, bot, guildIds } = await botInGuilds(app, 1);
  const guildId = guildIds[0]!;
  const userIds = await seedMembers(app.db, guildId, people);
  await setApprovedIntents({ db: app.db, actor: null }, bot.application.id, ["GUILD_MEMBERS", "PRESENCE"], true);
  const { client } = await identified(server, bot.token, { intents });
  await client.dispatch(GatewayDispatchEvents.GuildCreate);
  return { owner, bot, guildId, userIds, client };
}

const named = (...usernames: string[]) => usernames.map((username) => ({ username }));

describe("REQUEST_GUILD_MEMBERS (op 8)", () => {
  it("sends a guild of 2,500 members in three chunks of at most 1000, each member once, as REST shows them", async () => {
    const people = Array.from({ length: 2500 }, (_, i) => ({ username: `crowd_${i}` }));
    const { owner, bot, guildId, client } = await botWithMembers(people);
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 0, nonce: "all" } });
    const chunks = await chunksOf(client, "all");

    expect(chunks.map((chunk) => [chunk.chunk_index, chunk.chunk_count, chunk.members.length])).toEqual([
      [0, 3, 1000],
      [1, 3, 1000],
      [2, 3, 502],
    ]);
    const received = chunks.flatMap((chunk) => chunk.members.map((member) => member.user.id));
    const stored = await app.db.member.findMany({ where: { guildId }, select: { userId: true } });
    expect(received).toHaveLength(2502);
    expect(new Set(received)).toEqual(new Set(stored.map((row) => row.userId)));
    expect(new Set(received)).toContain(owner.user.id);
    expect(chunks.every((chunk) => chunk.guild_id === guildId && chunk.not_found === undefined && chunk.presences === undefined)).toBe(true);

    const sample = chunks[1]!.members[17]!;
    const rest = await app.as(botAuth(bot.token)).get(`/guilds/${guildId}/members/${sample.user.id}`);
    expect(sample).toEqual(rest.body);
  });

  it("answers a name prefix, ignoring case, from usernames and nicknames, at most `limit`", async () => {
    const { guildId, client } = await botWithMembers([
      { username: "alice_prefix" },
      { username: "ALBA_prefix" },
      { username: "bob_prefix", nick: "Alfred" },
      { username: "carol_prefix" },
    ]);
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "al", limit: 10, nonce: "al" } });
    const [found] = await chunksOf(client, "al");
    expect(found).toMatchObject({ chunk_index: 0, chunk_count: 1 });
    expect(found!.members.map((member) => member.user.username).sort()).toEqual(["ALBA_prefix", "alice_prefix", "bob_prefix"]);

    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "al", limit: 2, nonce: "two" } });
    expect((await chunksOf(client, "two"))[0]!.members).toHaveLength(2);

    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "zz", limit: 0, nonce: "none" } });
    expect(await chunksOf(client, "none")).toEqual([{ guild_id: guildId, members: [], chunk_index: 0, chunk_count: 1, nonce: "none" }]);
  });

  it("answers user ids with the members among them and the rest in not_found", async () => {
    const { guildId, userIds, client } = await botWithMembers(named("ids_one", "ids_two", "ids_three"));
    const stranger = newId();
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, user_ids: [userIds[0], stranger, userIds[2]], nonce: "ids" } });
    const [chunk] = await chunksOf(client, "ids");
    expect(chunk!.members.map((member) => member.user.id).sort()).toEqual([userIds[0], userIds[2]].sort());
    expect(chunk!.not_found).toEqual([stranger]);

    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, user_ids: userIds[1], nonce: "one" } });
    const [one] = await chunksOf(client, "one");
    expect(one!.members.map((member) => member.user.username)).toEqual(["ids_two"]);
    expect(one!.not_found).toEqual([]);
  });

  it("sends the first `limit` members for an empty query, and echoes a nonce of up to 32 bytes only", async () => {
    const { guildId, client } = await botWithMembers(named("lim_a", "lim_b", "lim_c", "lim_d", "lim_e", "lim_f"));
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 5, nonce: "x".repeat(32) } });
    const [chunk] = await chunksOf(client, "x".repeat(32));
    expect(chunk).toMatchObject({ chunk_index: 0, chunk_count: 1 });
    expect(chunk!.members).toHaveLength(5);

    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "lim_a", limit: 1, nonce: "é".repeat(17) } });
    const [unnamed] = await chunksOf(client, undefined);
    expect(unnamed).not.toHaveProperty("nonce");
    expect(unnamed!.members.map((member) => member.user.username)).toEqual(["lim_a"]);
  });

  it("answers nothing for every member without GUILD_MEMBERS, or for another guild; names and ids need no intent", async () => {
    const { guildId, userIds, client } = await botWithMembers(named("quiet_a", "quiet_b"), I.Guilds);
    const { guildIds: otherGuilds } = await botInGuilds(app, 1);
    const refused: Frame[] = [];
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 0, nonce: "refused" } });
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 5, nonce: "refused" } });
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: otherGuilds[0], user_ids: userIds, nonce: "refused" } });
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, user_ids: userIds, nonce: "ids" } });
    await client.waitFor((frame) => {
      if (isChunk(frame, "refused")) refused.push(frame);
      return isChunk(frame, "ids");
    });
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "quiet", limit: 10, nonce: "named" } });
    const [byName] = await chunksOf(client, "named");
    expect(byName!.members).toHaveLength(2);
    expect(refused).toEqual([]);
    expect(client.ws.readyState).toBe(client.ws.OPEN);
  });

  it("sends presences only to a session with GUILD_PRESENCES that asks for them", async () => {
    const without = await botWithMembers(named("pres_a"));
    without.client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: without.guildId, query: "pres", limit: 1, presences: true, nonce: "p" } });
    expect((await chunksOf(without.client, "p"))[0]).not.toHaveProperty("presences");

    const withPresences = await botWithMembers(named("pres_online", "pres_offline"), I.Guilds | I.GuildMembers | I.GuildPresences);
    const { client, guildId, userIds } = withPresences;
    await addPresences(app.db, [userIds[0]!], "idle");
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "pres", limit: 10, presences: true, nonce: "p" } });
    // As on the platform, offline members are left out of the chunk's presences.
    const [chunk] = await chunksOf(client, "p");
    expect(chunk!.members).toHaveLength(2);
    expect(chunk!.presences).toEqual([{ user: { id: userIds[0] }, status: "idle", activities: [], client_status: expect.any(Object) }]);
  });

  it("rate limits requests for every member to one per guild per bot every 30 s, with a RATE_LIMITED dispatch", async () => {
    const { bot, guildId, client } = await botWithMembers(named("rl_a"));
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 0, nonce: "first" } });
    await chunksOf(client, "first");
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 0, nonce: "again" } });
    const limited = (await client.dispatch(GatewayDispatchEvents.RateLimited)).d as GatewayRateLimitedDispatchData;
    expect(limited).toEqual({ opcode: GatewayOpcodes.RequestGuildMembers, retry_after: expect.any(Number), meta: { guild_id: guildId, nonce: "again" } });
    expect(limited.retry_after).toBeGreaterThan(0);
    expect(limited.retry_after).toBeLessThanOrEqual(30);

    // Other forms of the request are not limited; the limit is the bot's, whichever session asks.
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 1, nonce: "some" } });
    expect(await chunksOf(client, "some")).toHaveLength(1);
    const { client: second } = await identified(server, bot.token, { intents: I.Guilds | I.GuildMembers });
    second.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 0 } });
    expect((await second.dispatch(GatewayDispatchEvents.RateLimited)).d).toEqual({
      opcode: GatewayOpcodes.RequestGuildMembers,
      retry_after: expect.any(Number),
      meta: { guild_id: guildId },
    });

    // Another bot in the same guild has its own allowance.
    const other = await makeBot(app.db);
    await addMember(app.db, guildId, other.user.id);
    await setApprovedIntents({ db: app.db, actor: null }, other.application.id, ["GUILD_MEMBERS"], true);
    const { client: otherClient } = await identified(server, other.token, { intents: I.Guilds | I.GuildMembers });
    await otherClient.dispatch(GatewayDispatchEvents.GuildCreate);
    otherClient.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 0, nonce: "own" } });
    expect((await chunksOf(otherClient, "own"))[0]!.members).toHaveLength(4);
  });

  it("counts a listing that answers every member, or more than 100, against the same limit", async () => {
    const people = Array.from({ length: 150 }, (_, i) => ({ username: `many_${i}` }));
    const { guildId, client } = await botWithMembers(people);
    const limitedFor = (nonce: string) =>
      client.waitFor(
        (frame) => frame.t === GatewayDispatchEvents.RateLimited && (frame.d as GatewayRateLimitedDispatchData).meta.nonce === nonce,
        `RATE_LIMITED for ${nonce}`,
      );
    // A limit past the guild's size answers every member, and counts as asking for every member.
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 1_000_000, nonce: "huge" } });
    expect((await chunksOf(client, "huge")).flatMap((chunk) => chunk.members)).toHaveLength(152);
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 0, nonce: "all" } });
    await limitedFor("all");
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 1_000_000, nonce: "again" } });
    await limitedFor("again");
    // More than any query answers (100) counts too, short of every member; 100 does not.
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 101, nonce: "many" } });
    await limitedFor("many");
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 100, nonce: "page" } });
    expect((await chunksOf(client, "page"))[0]!.members).toHaveLength(100);

    // In a small guild, a limit of its member count is every member.
    const small = await botWithMembers(named("few_a", "few_b"));
    small.client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: small.guildId, query: "", limit: 4, nonce: "every" } });
    expect((await chunksOf(small.client, "every"))[0]!.members).toHaveLength(4);
    small.client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: small.guildId, query: "", limit: 0, nonce: "all" } });
    expect(
      (await small.client.waitFor((frame) => frame.t === GatewayDispatchEvents.RateLimited, "RATE_LIMITED")).d as GatewayRateLimitedDispatchData,
    ).toMatchObject({ meta: { guild_id: small.guildId, nonce: "all" } });
    small.client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: small.guildId, query: "", limit: 3, nonce: "three" } });
    expect((await chunksOf(small.client, "three"))[0]!.members).toHaveLength(3);
  });

  it.each([
    ["no guild_id", { query: "", limit: 0 }],
    ["several guilds", { guild_id: ["1", "2"], query: "", limit: 0 }],
    ["a query without limit", { guild_id: "1", query: "a" }],
    ["neither query nor user_ids", { guild_id: "1" }],
    ["a negative limit", { guild_id: "1", query: "", limit: -1 }],
    ["user ids that are not snowflakes", { guild_id: "1", user_ids: ["me"] }],
    ["a payload that is not an object", "members please"],
  ])("closes with 4002 for %s", async (_, d) => {
    const { client } = await botWithMembers([]);
    client.send({ op: GatewayOpcodes.RequestGuildMembers, d });
    expect(await client.closeCode()).toBe(GatewayCloseCodes.DecodeError);
  });
});
