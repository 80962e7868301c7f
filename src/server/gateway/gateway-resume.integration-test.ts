import { randomBytes } from "node:crypto";
import { GatewayCloseCodes, GatewayIntentBits, GatewayOpcodes, type GatewayReadyDispatchData } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { addMember, makeBot, makeGuild } from "~/test/factories.ts";
import { botInGuilds, identified, useGatewayServer, type GatewayClient, type GatewayServer } from "~/test/gateway-kit.ts";
import { bot as botAuth } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { until } from "~/test/until.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";
import { sweepSessions, touchSessions } from "./session-store.ts";

const app = useTestApp();
const options = { router: () => createEventRouter({ db: app.db }), limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } } };
// Two instances on one database and one event bus: a session resumes on either.
const first = useGatewayServer(app, options);
const second = useGatewayServer(app, options);
const MAX_REPLAY = 5;
// A third, whose replays read few events and which waits briefly for another instance to hand a session over.
const tight = useGatewayServer(app, { ...options, limits: { ...options.limits, maxReplayEvents: MAX_REPLAY, resumeHandoverMs: 300 } });
const intents = GatewayIntentBits.Guilds;

async function resumed(server: GatewayServer, fields: { token: string; session_id: string; seq: number }): Promise<GatewayClient> {
  const client = await server.connect();
  await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
  client.send({ op: GatewayOpcodes.Resume, d: fields });
  return client;
}

/**
 * A bot with a session (on the first instance unless named) that saw READY and its
 * GUILD_CREATE, did `meanwhile`, then lost its connection; `seq` is the last it received.
 */
async function droppedSession(server: GatewayServer = first, meanwhile?: () => Promise<void>) {
  const { bot, owner, guildIds } = await botInGuilds(app, 1);
  const { client, ready } = await identified(server, bot.token, { intents });
  const created = await client.dispatch("GUILD_CREATE");
  await meanwhile?.();
  client.terminate();
  await client.closed;
  return { bot, owner, guildId: guildIds[0]!, sessionId: (ready.d as GatewayReadyDispatchData).session_id, seq: created.s! };
}

describe("RESUME", () => {
  it("replays what the session missed, in order, then RESUMED, then live events (on another instance)", async () => {
    const { bot, owner, guildId, sessionId, seq } = await droppedSession();
    const rest = app.as(botAuth(owner.token));
    expect((await rest.patch(`/guilds/${guildId}`, { name: "First" })).status).toBe(200);
    expect((await rest.post(`/guilds/${guildId}/channels`, { name: "missed" })).status).toBe(200);
    expect((await rest.patch(`/guilds/${guildId}`, { name: "Second" })).status).toBe(200);

    const client = await resumed(second, { token: bot.token, session_id: sessionId, seq });
    const replayed = [await client.next(), await client.next(), await client.next()];
    expect(replayed.map((frame) => frame.t)).toEqual(["GUILD_UPDATE", "CHANNEL_CREATE", "GUILD_UPDATE"]);
    expect(replayed.map((frame) => (frame.d as { name: string }).name)).toEqual(["First", "missed", "Second"]);
    const seqs = replayed.map((frame) => frame.s!);
    expect(seqs[0]).toBeGreaterThan(seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    const done = await client.next();
    expect(done).toMatchObject({ op: GatewayOpcodes.Dispatch, t: "RESUMED" });

    expect((await rest.patch(`/guilds/${guildId}`, { name: "Live" })).status).toBe(200);
    const live = await client.dispatch("GUILD_UPDATE");
    expect(live.d).toMatchObject({ name: "Live" });
    expect(live.s).toBeGreaterThan(seqs[2]!);
  });

  it("resumes with nothing missed: RESUMED at once", async () => {
    const { bot, sessionId, seq } = await droppedSession();
    const client = await resumed(first, { token: bot.token, session_id: sessionId, seq });
    expect(await client.next()).toMatchObject({ t: "RESUMED" });
  });

  it("answers op 9 for an unknown session, another bot's session and an expired one", async () => {
    const { bot, sessionId, seq } = await droppedSession();
    const unknown = await resumed(first, { token: bot.token, session_id: "0".repeat(32), seq });
    expect(await unknown.next()).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });

    const other = await botInGuilds(app, 0);
    const stolen = await resumed(first, { token: other.bot.token, session_id: sessionId, seq });
    expect(await stolen.next()).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });

    const longAgo = new Date(Date.now() - 60 * 60_000);
    await app.db.gatewaySession.update({ where: { id: sessionId }, data: { closedAt: longAgo, lastSeenAt: longAgo } });
    const expired = await resumed(second, { token: bot.token, session_id: sessionId, seq });
    expect(await expired.next()).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });
    // After op 9 the connection may identify afresh.
    expired.identify({ token: bot.token, intents });
    expect(await expired.dispatch("READY")).toMatchObject({ op: GatewayOpcodes.Dispatch });
  });

  it("answers op 9 when the outbox no longer keeps events the session missed", async () => {
    const { bot, owner, guildId, sessionId, seq } = await droppedSession();
    const rest = app.as(botAuth(owner.token));
    expect((await rest.patch(`/guilds/${guildId}`, { name: "Missed" })).status).toBe(200);
    expect((await rest.patch(`/guilds/${guildId}`, { name: "Kept" })).status).toBe(200);
    // As the retention sweep does with old events: the first one the session missed is gone.
    const missed = await app.db.event.findFirstOrThrow({ where: { guildId, type: "GUILD_UPDATE", data: { contains: '"name":"Missed"' } } });
    await app.db.event.deleteMany({ where: { seq: { lte: missed.seq } } });
    const client = await resumed(first, { token: bot.token, session_id: sessionId, seq });
    expect(await client.next()).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });
  });

  it("closes with 4007 for a sequence the session was never sent, and the session is over", async () => {
    const { bot, sessionId, seq } = await droppedSession();
    const ahead = await resumed(first, { token: bot.token, session_id: sessionId, seq: seq + 1_000_000 });
    expect(await ahead.closeCode()).toBe(GatewayCloseCodes.InvalidSeq);
    const again = await resumed(first, { token: bot.token, session_id: sessionId, seq });
    expect(await again.next()).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });
  });

  it("4004 for a RESUME with a token that is not a bot's", async () => {
    const { sessionId, seq } = await droppedSession();
    const client = await resumed(first, { token: "MTIz.nope", session_id: sessionId, seq });
    expect(await client.closeCode()).toBe(GatewayCloseCodes.AuthenticationFailed);
  });
});

describe("RESUME replays only what the session would have heard after its own READY", () => {
  it("never what came before READY: not from a sequence of before it, nor from seq 0", async () => {
    const owner = await makeBot(app.db);
    const bot = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const rest = app.as(botAuth(owner.token));
    const channel = (await rest.post(`/guilds/${guild.id}/channels`, { name: "history" })).body as { id: string };
    const posted = (await rest.post(`/channels/${channel.id}/messages`, { content: "posted before the bot came" })).body as { id: string };
    expect((await rest.delete(`/channels/${channel.id}/messages/${posted.id}`)).status).toBe(204);
    const created = await app.db.event.findFirstOrThrow({ where: { type: "MESSAGE_CREATE", guildId: guild.id }, orderBy: { seq: "desc" } });
    await addMember(app.db, guild.id, bot.user.id);

    const messageIntents = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages;
    const { client, ready } = await identified(first, bot.token, { intents: messageIntents });
    await client.dispatch("GUILD_CREATE");
    client.terminate();
    await client.closed;
    const sessionId = (ready.d as GatewayReadyDispatchData).session_id;

    // The outbox sequence of the message, named as RESUME's seq: a sequence this session never numbered.
    const fromBefore = await resumed(second, { token: bot.token, session_id: sessionId, seq: created.seq });
    expect(await fromBefore.closeCode()).toBe(GatewayCloseCodes.InvalidSeq);
    expect(JSON.stringify(fromBefore.unread())).not.toContain("posted before the bot came");

    const again = await identified(first, bot.token, { intents: messageIntents });
    await again.client.dispatch("GUILD_CREATE");
    again.client.terminate();
    await again.client.closed;
    const fromZero = await resumed(second, { token: bot.token, session_id: (again.ready.d as GatewayReadyDispatchData).session_id, seq: 0 });
    const frames = await fromZero.framesThrough((frame) => frame.t === "RESUMED", "RESUMED");
    // Only the session's own start is sent again: its GUILD_CREATE, then RESUMED.
    expect(frames.map((frame) => frame.t)).toEqual(["GUILD_CREATE", "RESUMED"]);
    expect(JSON.stringify(frames)).not.toContain("posted before the bot came");
  });

  it("answers op 9 when the session missed more events than a replay may read", async () => {
    const { bot, owner, guildId, sessionId, seq } = await droppedSession(tight);
    const rest = app.as(botAuth(owner.token));
    for (let i = 0; i < MAX_REPLAY + 1; i++) expect((await rest.patch(`/guilds/${guildId}`, { name: `Missed ${i}` })).status).toBe(200);
    const client = await resumed(tight, { token: bot.token, session_id: sessionId, seq });
    expect(await client.next()).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });
  });

  it("resumes a quiet session however busy the outbox was elsewhere: what it was routed and not sent does not count", async () => {
    const { bot, sessionId, seq } = await droppedSession(tight, async () => {
      // Another bot's guild is busy while this session is connected; the other bot hears the last change, so all were routed.
      const busy = await botInGuilds(app, 1);
      const { client } = await identified(tight, busy.bot.token, { intents });
      await client.dispatch("GUILD_CREATE");
      const rest = app.as(botAuth(busy.owner.token));
      for (let i = 0; i < MAX_REPLAY * 2; i++) expect((await rest.patch(`/guilds/${busy.guildIds[0]}`, { name: `Busy ${i}` })).status).toBe(200);
      await client.waitFor((frame) => (frame.d as { name?: string } | null)?.name === `Busy ${MAX_REPLAY * 2 - 1}`, "the last busy change");
    });
    const client = await resumed(tight, { token: bot.token, session_id: sessionId, seq });
    expect(await client.next()).toMatchObject({ t: "RESUMED" });
  });

  it("for the guilds the session was in then: a guild joined while away starts with GUILD_CREATE, a guild left ends with GUILD_DELETE alone", async () => {
    const { bot, owner, guildId: left, sessionId, seq } = await droppedSession();
    const rest = app.as(botAuth(owner.token));
    expect((await rest.patch(`/guilds/${left}`, { name: "Before the kick" })).status).toBe(200);
    expect((await rest.delete(`/guilds/${left}/members/${bot.user.id}`)).status).toBe(204);
    const joined = await makeGuild(app.db, owner.actor);
    await addMember(app.db, joined.id, bot.user.id);
    expect((await rest.patch(`/guilds/${joined.id}`, { name: "After the join" })).status).toBe(200);

    const client = await resumed(second, { token: bot.token, session_id: sessionId, seq });
    const frames = await client.framesThrough((frame) => frame.t === "RESUMED", "RESUMED");
    expect(frames.map((frame) => [frame.t, (frame.d as { id?: string } | null)?.id ?? null])).toEqual([
      // The bot is no longer in the guild it left: what happened there is not shown, its leaving is.
      ["GUILD_DELETE", left],
      ["GUILD_CREATE", joined.id],
      ["GUILD_UPDATE", joined.id],
      ["RESUMED", null],
    ]);
  });
});

describe("RESUME across instances", () => {
  it("is refused with op 9 when the instance that held the session stopped without saying where the client was", async () => {
    const { bot, sessionId, seq } = await droppedSession();
    await until(async () => (await app.db.gatewaySession.findUnique({ where: { id: sessionId } }))?.closedAt != null);
    // As a crashed instance leaves its session: open, seen recently, and no sequence map.
    await app.db.gatewaySession.update({ where: { id: sessionId }, data: { closedAt: null, lastSeenAt: new Date(), sequenceMap: null } });
    const client = await resumed(tight, { token: bot.token, session_id: sessionId, seq });
    expect(await client.next()).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });
  });

  it("waits for a connection elsewhere that still holds the session, and resumes once it ends", async () => {
    const { bot, sessionId, seq } = await droppedSession();
    const holder = await resumed(second, { token: bot.token, session_id: sessionId, seq });
    const done = await holder.dispatch("RESUMED");
    // Held by a live connection on the second instance: the third waits for it, then answers op 9.
    const meanwhile = await resumed(tight, { token: bot.token, session_id: sessionId, seq: done.s! });
    expect(await meanwhile.next()).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });
    // Once that connection ends, the session is handed over.
    holder.terminate();
    const after = await resumed(tight, { token: bot.token, session_id: sessionId, seq: done.s! });
    expect(await after.dispatch("RESUMED")).toMatchObject({ s: done.s! + 1 });
  });
});

describe("stored sessions", () => {
  it("the sweep deletes sessions closed or unseen past the window and keeps the others; a seen session is open again", async () => {
    const { bot } = await botInGuilds(app, 0);
    const now = new Date();
    const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    const base = {
      applicationId: bot.application.id,
      botUserId: bot.user.id,
      intents: 0,
      shardId: 0,
      shardCount: 1,
      largeThreshold: 50,
      messageContent: false,
    };
    const ids = { closedLongAgo: randomId(), unseenLongAgo: randomId(), closedRecently: randomId(), connected: randomId() };
    await app.db.gatewaySession.createMany({
      data: [
        { ...base, id: ids.closedLongAgo, closedAt: minutesAgo(10), lastSeenAt: minutesAgo(20) },
        { ...base, id: ids.unseenLongAgo, closedAt: null, lastSeenAt: minutesAgo(10) },
        { ...base, id: ids.closedRecently, closedAt: minutesAgo(1), lastSeenAt: minutesAgo(2) },
        { ...base, id: ids.connected, closedAt: minutesAgo(1), lastSeenAt: minutesAgo(9) },
      ],
    });
    await touchSessions(app.db, [ids.connected], now);
    // Twice: an instance sweeping after another finds nothing left to do.
    expect(await sweepSessions(app.db, now, 5 * 60_000)).toBeGreaterThanOrEqual(2);
    await sweepSessions(app.db, now, 5 * 60_000);
    const left = await app.db.gatewaySession.findMany({ where: { id: { in: Object.values(ids) } }, select: { id: true, closedAt: true } });
    expect(left.map((row) => row.id).sort()).toEqual([ids.closedRecently, ids.connected].sort());
    expect(left.find((row) => row.id === ids.connected)?.closedAt).toBeNull();
  });
});

function randomId(): string {
  return randomBytes(16).toString("hex");
}
