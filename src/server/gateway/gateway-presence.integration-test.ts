import { ActivityType, GatewayIntentBits as I, GatewayOpcodes, type GatewayGuildCreateDispatchData } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { setProfilePrivacy } from "~/server/users/account.service.ts";
import { addMember, makeBot, makeGuild, writeGuildState } from "~/test/factories.ts";
import { identified, useGatewayServer, type Frame, type GatewayClient } from "~/test/gateway-kit.ts";
import { bot as botAuth } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";
import { storeSession, sweepSessions } from "./session-store.ts";
import { setSessionPresence } from "~/server/presences/presence.service.ts";

const app = useTestApp();
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } },
});

type Bot = Awaited<ReturnType<typeof makeBot>>;

const CHESS = { name: "Chess", type: ActivityType.Playing };
const LUNCH = { name: "Custom Status", type: ActivityType.Custom, state: "Out for lunch" };

/** A guild with a bot watching presences (GUILD_PRESENCES), one that does not ask for them, and the bot whose presence changes. */
async function setUp() {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  const watcher = await makeBot(app.db);
  await setApprovedIntents({ db: app.db, actor: null }, watcher.application.id, ["PRESENCE"], true);
  const blind = await makeBot(app.db);
  const subject = await makeBot(app.db);
  for (const who of [watcher, blind, subject]) await addMember(app.db, guild.id, who.user.id);
  return { owner, guild, watcher, blind, subject };
}

async function watch(who: Bot, intents = I.Guilds | I.GuildPresences) {
  const { client } = await identified(server, who.token, { intents });
  return client;
}

/** The next PRESENCE_UPDATE about `userId` in `guildId`. */
function presenceOf(client: GatewayClient, userId: string, guildId: string): Promise<Frame> {
  return client.waitFor(
    (frame) => frame.t === "PRESENCE_UPDATE" && (frame.d as any).user.id === userId && (frame.d as any).guild_id === guildId,
    "a PRESENCE_UPDATE",
  );
}

function setPresence(client: GatewayClient, status: string, activities: object[] = []) {
  client.send({ op: GatewayOpcodes.PresenceUpdate, d: { since: null, activities, status, afk: false } });
}

/** Members (new users) until the guild has `total`. */
async function growTo(guildId: string, total: number) {
  const count = total - (await app.db.member.count({ where: { guildId } }));
  const users = Array.from({ length: count }, (_, i) => ({ id: newId(), username: `crowd_${i}` }));
  await app.db.user.createMany({ data: users });
  await writeGuildState(app.db, guildId, (tx) => tx.member.createMany({ data: users.map((user) => ({ guildId, userId: user.id })) }));
}

describe("PRESENCE_UPDATE", () => {
  it("goes to sessions with GUILD_PRESENCES when a bot identifies and when it sends op 3, and to no other session", async () => {
    const { owner, guild, watcher, blind, subject } = await setUp();
    const watching = await watch(watcher);
    const notWatching = await watch(blind, I.Guilds);
    const { client } = await identified(server, subject.token, { intents: I.Guilds, presence: { since: null, activities: [], status: "idle", afk: true } });
    expect((await presenceOf(watching, subject.user.id, guild.id)).d).toEqual({
      user: { id: subject.user.id },
      guild_id: guild.id,
      status: "idle",
      activities: [],
      client_status: { desktop: "idle" },
    });

    setPresence(client, "dnd", [CHESS]);
    const update = (await presenceOf(watching, subject.user.id, guild.id)).d as any;
    expect(update).toMatchObject({ status: "dnd", client_status: { desktop: "dnd" } });
    expect(update.activities).toEqual([{ id: expect.any(String), name: "Chess", type: ActivityType.Playing, created_at: expect.any(Number) }]);

    // Events arrive in commit order: once the rename arrives, no presence came before it.
    await app.as(botAuth(owner.token)).patch(`/guilds/${guild.id}`, { name: "Renamed" });
    await notWatching.dispatch("GUILD_UPDATE");
    await watching.dispatch("GUILD_UPDATE");
    expect(notWatching.unread().filter((frame) => frame.t === "PRESENCE_UPDATE")).toEqual([]);
  });

  it("shows invisible as offline, and the bot offline when its last session closes, with the other session's presence before that", async () => {
    const { guild, watcher, subject } = await setUp();
    const watching = await watch(watcher);
    const first = (await identified(server, subject.token, { presence: { since: null, activities: [CHESS], status: "online", afk: false } })).client;
    await presenceOf(watching, subject.user.id, guild.id);
    const second = (await identified(server, subject.token)).client;
    // A session that identifies without a presence shows online, and is now the most recent.
    expect((await presenceOf(watching, subject.user.id, guild.id)).d).toMatchObject({ status: "online", activities: [] });
    setPresence(second, "invisible");
    // The most recent presence is the second session's: invisible, seen as offline.
    expect((await presenceOf(watching, subject.user.id, guild.id)).d).toMatchObject({ status: "offline", activities: [], client_status: {} });
    second.terminate();
    expect((await presenceOf(watching, subject.user.id, guild.id)).d).toMatchObject({ status: "online", activities: [{ name: "Chess" }] });
    first.terminate();
    expect((await presenceOf(watching, subject.user.id, guild.id)).d).toEqual({
      user: { id: subject.user.id },
      guild_id: guild.id,
      status: "offline",
      activities: [],
      client_status: {},
    });
  });

  it("shows a bot offline once when the sweep deletes a session its stopped instance left open, whichever instance sweeps", async () => {
    const { guild, watcher, subject } = await setUp();
    const watching = await watch(watcher);
    // A session of an instance that stopped six minutes ago: never closed, no longer seen.
    const then = new Date(Date.now() - 6 * 60_000);
    const session = {
      id: newId(),
      applicationId: subject.application.id,
      kind: "bot" as const,
      botUserId: subject.user.id,
      intents: 0,
      shardId: 0,
      shardCount: 1,
      largeThreshold: 50,
      messageContent: false,
      channelObfuscation: false,
    };
    await storeSession(app.db, session, then);
    await setSessionPresence(app.db, { id: session.id, userId: subject.user.id }, undefined, then);
    expect((await presenceOf(watching, subject.user.id, guild.id)).d).toMatchObject({ status: "online" });

    const before = (await app.db.event.aggregate({ _max: { seq: true } }))._max.seq!;
    await Promise.all([sweepSessions(app.db, new Date(), 5 * 60_000), sweepSessions(app.db, new Date(), 5 * 60_000)]);
    expect((await presenceOf(watching, subject.user.id, guild.id)).d).toMatchObject({ status: "offline" });
    const stored = await app.db.event.findMany({ where: { seq: { gt: before }, type: "PRESENCE_UPDATE", guildId: guild.id } });
    expect(stored.filter((event) => event.data.includes(subject.user.id))).toHaveLength(1);
  });
});

describe("GUILD_CREATE presences", () => {
  it("lists the members seen online to sessions with GUILD_PRESENCES only", async () => {
    const { guild, watcher, blind, subject } = await setUp();
    const { client } = await identified(server, subject.token, { presence: { since: null, activities: [LUNCH], status: "dnd", afk: false } });
    const watching = await watch(watcher);
    const created = (await watching.dispatch("GUILD_CREATE")).d as GatewayGuildCreateDispatchData;
    const presences = created.presences.filter((presence) => presence.user.id !== watcher.user.id);
    expect(presences).toEqual([
      {
        user: { id: subject.user.id },
        guild_id: guild.id,
        status: "dnd",
        activities: [{ id: "custom", name: "Custom Status", type: ActivityType.Custom, state: "Out for lunch", created_at: expect.any(Number) }],
        client_status: { desktop: "dnd" },
      },
    ]);
    const notWatching = await watch(blind, I.Guilds);
    expect(((await notWatching.dispatch("GUILD_CREATE")).d as GatewayGuildCreateDispatchData).presences).toEqual([]);
    client.terminate();
  });
});

describe("the custom status privacy rule", () => {
  it("with friends and small servers, keeps a custom status in a guild of 200 members and leaves it out at 201; friends only leaves it out everywhere", async () => {
    const { guild: small, watcher, subject, owner } = await setUp();
    const large = await makeGuild(app.db, owner.actor);
    for (const who of [watcher, subject]) await addMember(app.db, large.id, who.user.id);
    await growTo(small.id, 200);
    await growTo(large.id, 201);
    await setProfilePrivacy({ db: app.db, actor: null }, subject.user.id, "friends_and_small_servers");
    const watching = await watch(watcher);
    const { client } = await identified(server, subject.token);
    await presenceOf(watching, subject.user.id, small.id);

    setPresence(client, "online", [CHESS, LUNCH]);
    const names = async (guildId: string) => ((await presenceOf(watching, subject.user.id, guildId)).d as any).activities.map((a: { name: string }) => a.name);
    expect(await names(small.id)).toEqual(["Chess", "Custom Status"]);
    expect(await names(large.id)).toEqual(["Chess"]);
    const created = (await watch(watcher)).dispatch("GUILD_CREATE");
    expect(((await created).d as GatewayGuildCreateDispatchData).presences.find((p) => p.user.id === subject.user.id)?.activities).toHaveLength(2);

    // Only where what others see changes: the large guild showed no custom status already.
    await setProfilePrivacy({ db: app.db, actor: null }, subject.user.id, "friends_only");
    expect(await names(small.id)).toEqual(["Chess"]);
    setPresence(client, "idle", [CHESS, LUNCH]);
    expect(await names(small.id)).toEqual(["Chess"]);
    expect(await names(large.id)).toEqual(["Chess"]);
  });
});

describe("online counts", () => {
  it("count the members others see online in the guild and the bot's guild list", async () => {
    const { guild, subject, watcher } = await setUp();
    const counted = async () => {
      const one = (await app.as(botAuth(watcher.token)).get(`/guilds/${guild.id}`, { query: { with_counts: true } })).body;
      const list = (await app.as(botAuth(watcher.token)).get(`/users/@me/guilds`, { query: { with_counts: true } })).body;
      return [one.approximate_presence_count, list.find((g: { id: string }) => g.id === guild.id).approximate_presence_count];
    };
    expect(await counted()).toEqual([0, 0]);
    const watching = await watch(watcher);
    const { client } = await identified(server, subject.token);
    await presenceOf(watching, subject.user.id, guild.id);
    expect(await counted()).toEqual([2, 2]);
    setPresence(client, "invisible");
    await presenceOf(watching, subject.user.id, guild.id);
    expect(await counted()).toEqual([1, 1]);
  });
});
