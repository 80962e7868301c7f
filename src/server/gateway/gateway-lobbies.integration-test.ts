import { GatewayCloseCodes, GatewayIntentBits, GatewayOpcodes, type GatewayReadyDispatchData } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { revokeTokens, tokenIdOf } from "~/server/auth/tokens.service.ts";
import { createGuild } from "~/server/guilds/guild.service.ts";
import { LobbyMemberFlags } from "~/server/lobbies/lobby.schema.ts";
import { addMember, makeBot } from "~/test/factories.ts";
import { identified, useGatewayServer, type Frame, type GatewayClient } from "~/test/gateway-kit.ts";
import { lobbyKit } from "~/test/lobby-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { until } from "~/test/until.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";

const app = useTestApp();
const kit = lobbyKit(app);
// The default limits: a game's players identify one after another without waiting.
const server = useGatewayServer(app, { router: () => createEventRouter({ db: app.db }) });
// An instance where each application may start one session a day.
const stingy = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, total: 1 } },
});

type Player = Awaited<ReturnType<typeof kit.player>>;

/** A game client of `player`, identified: its connection and READY. */
function gameClient(player: Player) {
  return identified(server, `Bearer ${player.token}`);
}

/**
 * The frames a client received up to the first matching `last` (which is consumed with
 * them). Events arrive in outbox order, so a later event everyone hears shows that nothing
 * before it is still on its way.
 */
async function framesUntil(client: GatewayClient, last: (frame: Frame) => boolean, what: string): Promise<Frame[]> {
  await until(() => Promise.resolve(client.unread().some(last)), 15_000).catch(() => {
    throw new Error(`no ${what}`);
  });
  const frames = [...client.unread()];
  await client.waitFor(last, what);
  return frames.slice(0, frames.findIndex(last) + 1);
}

const lobbyOf = (frame: Frame) => {
  const d = (frame.d ?? {}) as { lobby_id?: string; id?: string };
  return frame.t === "LOBBY_CREATE" || frame.t === "LOBBY_UPDATE" || frame.t === "LOBBY_DELETE" ? d.id : d.lobby_id;
};
const summary = (frames: Frame[]) => frames.filter((frame) => frame.op === GatewayOpcodes.Dispatch).map((frame) => `${frame.t} ${lobbyOf(frame)}`);

describe("game clients on the gateway", () => {
  it("identify with Bearer and their access token and get READY naming their player, without guilds", async () => {
    const { application, players } = await kit.game(1);
    const { ready } = await gameClient(players[0]!);
    const d = ready.d as GatewayReadyDispatchData;
    expect(d).toMatchObject({ v: 10, user: { id: players[0]!.user.id, username: players[0]!.user.username }, guilds: [], application: { id: application.id } });
    expect(d.user.bot).toBeUndefined();
    expect(d.session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(d.resume_gateway_url).toBe(server.url("").replace(/\?$/, ""));
    expect(await app.db.gatewaySession.findUniqueOrThrow({ where: { id: d.session_id } })).toMatchObject({
      kind: "user",
      botUserId: players[0]!.user.id,
      applicationId: application.id,
    });
  });

  it("close with 4004 without sdk.social_layer, or when the access token is not sent as Bearer", async () => {
    const { application, players } = await kit.game(1);
    const unscoped = await kit.player(application.id, ["identify"]);
    for (const token of [`Bearer ${unscoped.token}`, players[0]!.token, `Bot ${players[0]!.token}`, "Bearer nope.nope"]) {
      const client = await server.connect();
      await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
      client.identify({ token });
      expect(await client.closeCode(), token.slice(0, 12)).toBe(GatewayCloseCodes.AuthenticationFailed);
    }
  });

  it("hear the events of their own lobbies only; bots hear none, and players no guild event", async () => {
    const { server: game, players, token, user: gameBot } = await kit.game(3);
    const [a, b, c] = players as [Player, Player, Player];
    const lobbyA = await kit.lobby(game, { members: [{ id: a.user.id }, { id: b.user.id }] });
    const lobbyB = await kit.lobby(game, { members: [{ id: c.user.id }] });
    // The game's own bot, about to join a guild that player a owns.
    const guild = await createGuild({ db: app.db, actor: dashboardActor(a.user.id) }, { name: "Clan" });
    const bot = await identified(server, token, { intents: GatewayIntentBits.Guilds });
    const clients = { a: await gameClient(a), b: await gameClient(b), c: await gameClient(c) };

    expect((await a.api.post(`/lobbies/${lobbyA.id}/messages`, { content: "in A" })).status).toBe(200);
    expect((await c.api.post(`/lobbies/${lobbyB.id}/messages`, { content: "in B" })).status).toBe(200);
    expect((await game.patch(`/lobbies/${lobbyA.id}`, { metadata: { map: "dust" } })).status).toBe(200);
    expect((await game.put(`/lobbies/${lobbyB.id}/members/${c.user.id}`, { metadata: { team: "red" } })).status).toBe(200);
    await addMember(app.db, guild.id, gameBot.id);
    // Everyone's last event: a lobby of all three.
    const everyone = await kit.lobby(game, { members: [{ id: a.user.id }, { id: b.user.id }, { id: c.user.id }] });
    const isLast = (frame: Frame) => frame.t === "LOBBY_CREATE" && lobbyOf(frame) === everyone.id;

    const added = (times: number) => Array.from({ length: times }, () => `LOBBY_MEMBER_ADD ${everyone.id}`);
    // Each hears the joins from its own on: a was added first, c last.
    const inA = [`LOBBY_MESSAGE_CREATE ${lobbyA.id}`, `LOBBY_UPDATE ${lobbyA.id}`];
    expect(summary(await framesUntil(clients.a.client, isLast, "the last lobby"))).toEqual([...inA, ...added(3), `LOBBY_CREATE ${everyone.id}`]);
    expect(summary(await framesUntil(clients.b.client, isLast, "the last lobby"))).toEqual([...inA, ...added(2), `LOBBY_CREATE ${everyone.id}`]);
    expect(summary(await framesUntil(clients.c.client, isLast, "the last lobby"))).toEqual([
      `LOBBY_MESSAGE_CREATE ${lobbyB.id}`,
      `LOBBY_MEMBER_UPDATE ${lobbyB.id}`,
      ...added(1),
      `LOBBY_CREATE ${everyone.id}`,
    ]);
    const botFrames = await framesUntil(bot.client, (frame) => frame.t === "GUILD_CREATE", "the bot's GUILD_CREATE");
    expect(botFrames.filter((frame) => frame.t?.startsWith("LOBBY_"))).toEqual([]);
  });

  it("hear their own removal, or the lobby's deletion, then nothing more of it; a player added hears it from then on", async () => {
    const { server: game, players } = await kit.game(3);
    const [a, b, c] = players as [Player, Player, Player];
    const lobby = await kit.lobby(game, { members: [{ id: a.user.id }, { id: b.user.id }] });
    const doomed = await kit.lobby(game, { members: [{ id: a.user.id }, { id: b.user.id }] });
    // Where b and c hear a last event each.
    const end = await kit.lobby(game, { members: [{ id: b.user.id }, { id: c.user.id }] });
    const clients = { a: await gameClient(a), b: await gameClient(b), c: await gameClient(c) };

    expect((await game.delete(`/lobbies/${lobby.id}/members/${a.user.id}`)).status).toBe(204);
    expect((await b.api.post(`/lobbies/${lobby.id}/messages`, { content: "a is gone" })).status).toBe(200);
    expect((await game.put(`/lobbies/${lobby.id}/members/${c.user.id}`, {})).status).toBe(200);
    expect((await b.api.post(`/lobbies/${lobby.id}/messages`, { content: "welcome c" })).status).toBe(200);
    expect((await game.delete(`/lobbies/${doomed.id}`)).status).toBe(204);
    expect((await a.api.post(`/lobbies/${lobby.id}/messages`, { content: "let me in" })).status).toBe(403);
    expect((await b.api.post(`/lobbies/${end.id}/messages`, { content: "the end" })).status).toBe(200);
    const isEnd = (frame: Frame) => frame.t === "LOBBY_MESSAGE_CREATE" && lobbyOf(frame) === end.id;

    // a hears its removal and the deletion, and nothing after: b's messages never reach it.
    const isDeleted = (frame: Frame) => frame.t === "LOBBY_DELETE";
    expect(summary(await framesUntil(clients.a.client, isDeleted, "the lobby's deletion"))).toEqual([
      `LOBBY_MEMBER_REMOVE ${lobby.id}`,
      `LOBBY_DELETE ${doomed.id}`,
    ]);
    expect(summary(await framesUntil(clients.b.client, isEnd, "the last message"))).toEqual([
      `LOBBY_MEMBER_REMOVE ${lobby.id}`,
      `LOBBY_MESSAGE_CREATE ${lobby.id}`,
      `LOBBY_MEMBER_ADD ${lobby.id}`,
      `LOBBY_MESSAGE_CREATE ${lobby.id}`,
      `LOBBY_DELETE ${doomed.id}`,
      `LOBBY_MESSAGE_CREATE ${end.id}`,
    ]);
    const heardByC = await framesUntil(clients.c.client, isEnd, "the last message");
    expect(summary(heardByC)).toEqual([`LOBBY_MEMBER_ADD ${lobby.id}`, `LOBBY_MESSAGE_CREATE ${lobby.id}`, `LOBBY_MESSAGE_CREATE ${end.id}`]);
    expect(heardByC[1]!.d).toMatchObject({ content: "welcome c" });
    expect(summary([...clients.a.client.unread()])).not.toContain(`LOBBY_MESSAGE_CREATE ${end.id}`);
  });

  it("receive a message's metadata, which the linked channel's copy does not carry, and moderation metadata as a message update", async () => {
    const { server: game, players } = await kit.game(1);
    const host = players[0]!;
    const guild = await createGuild({ db: app.db, actor: dashboardActor(host.user.id) }, { name: "Clan" });
    const general = guild.system_channel_id!;
    const lobby = await kit.lobby(game, { members: [{ id: host.user.id, flags: LobbyMemberFlags.CanLinkLobby }] });
    expect((await host.api.patch(`/lobbies/${lobby.id}/channel-linking`, { channel_id: general })).status).toBe(200);
    const watcher = await makeBot(app.db);
    await addMember(app.db, guild.id, watcher.user.id);
    const bot = await identified(server, watcher.token, { intents: GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages });
    const player = await gameClient(host);

    const sent = await host.api.post(`/lobbies/${lobby.id}/messages`, { content: "gg", metadata: { emote: "wave" } });
    expect(sent.status).toBe(200);
    const created = await player.client.dispatch("LOBBY_MESSAGE_CREATE");
    expect(created.d).toMatchObject({ id: sent.body.id, content: "gg", lobby_id: lobby.id, metadata: { emote: "wave" }, author: { id: host.user.id } });
    const copy = await bot.client.dispatch("MESSAGE_CREATE");
    expect(copy.d).toMatchObject({ channel_id: general, author: { id: host.user.id } });
    expect(copy.d).not.toHaveProperty("metadata");
    expect(JSON.stringify(copy.d)).not.toContain("wave");

    expect((await game.put(`/lobbies/${lobby.id}/messages/${sent.body.id}/moderation-metadata`, { verdict: "clean" })).status).toBe(204);
    // The player hears the update next: the copy's MESSAGE_CREATE, a guild event, never reached it.
    const updated = await player.client.next();
    expect(updated).toMatchObject({
      t: "LOBBY_MESSAGE_UPDATE",
      d: { id: sent.body.id, moderation_metadata: { verdict: "clean" }, metadata: { emote: "wave" } },
    });
  });

  it("resume and replay what they missed as members then: a lobby left up to the removal, a lobby joined from the joining", async () => {
    const { server: game, players } = await kit.game(2);
    const [a, b] = players as [Player, Player];
    const left = await kit.lobby(game, { members: [{ id: a.user.id }, { id: b.user.id }] });
    const joined = await kit.lobby(game, { members: [{ id: b.user.id }] });
    const first = await gameClient(a);
    const sessionId = (first.ready.d as GatewayReadyDispatchData).session_id;
    first.client.terminate();
    await first.client.closed;

    for (const [lobbyId, content] of [
      [left.id, "before a left"],
      [joined.id, "before a joined"],
    ] as const) {
      expect((await b.api.post(`/lobbies/${lobbyId}/messages`, { content })).status).toBe(200);
    }
    expect((await game.delete(`/lobbies/${left.id}/members/${a.user.id}`)).status).toBe(204);
    expect((await game.put(`/lobbies/${joined.id}/members/${a.user.id}`, {})).status).toBe(200);
    for (const [lobbyId, content] of [
      [left.id, "after a left"],
      [joined.id, "after a joined"],
    ] as const) {
      expect((await b.api.post(`/lobbies/${lobbyId}/messages`, { content })).status).toBe(200);
    }

    const client = await server.connect();
    await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
    client.send({ op: GatewayOpcodes.Resume, d: { token: `Bearer ${a.token}`, session_id: sessionId, seq: first.ready.s } });
    const replayed = await framesUntil(client, (frame) => frame.t === "RESUMED", "RESUMED");
    expect(summary(replayed)).toEqual([
      `LOBBY_MESSAGE_CREATE ${left.id}`,
      `LOBBY_MEMBER_REMOVE ${left.id}`,
      `LOBBY_MEMBER_ADD ${joined.id}`,
      `LOBBY_MESSAGE_CREATE ${joined.id}`,
      "RESUMED undefined",
    ]);
    expect(replayed.map((frame) => (frame.d as { content?: string } | null)?.content)).toEqual([
      "before a left",
      undefined,
      undefined,
      "after a joined",
      undefined,
    ]);

    // Live again: it hears the lobby it joined.
    expect((await b.api.post(`/lobbies/${joined.id}/messages`, { content: "live" })).status).toBe(200);
    expect((await client.dispatch("LOBBY_MESSAGE_CREATE")).d).toMatchObject({ content: "live" });
  });

  it("cannot resume another player's session, nor a game client's session with the application's bot token", async () => {
    const { players, token } = await kit.game(2);
    const { ready } = await gameClient(players[0]!);
    const { session_id } = ready.d as GatewayReadyDispatchData;
    for (const other of [`Bearer ${players[1]!.token}`, token]) {
      const client = await server.connect();
      await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
      client.send({ op: GatewayOpcodes.Resume, d: { token: other, session_id, seq: ready.s } });
      expect(await client.next()).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });
    }
  });

  it("count against their application's daily session start budget, as its bot does", async () => {
    const { players, token } = await kit.game(2);
    expect((await identified(stingy, `Bearer ${players[0]!.token}`)).ready.op).toBe(GatewayOpcodes.Dispatch);
    for (const spent of [`Bearer ${players[1]!.token}`, token]) {
      const client = await stingy.connect();
      await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
      client.identify({ token: spent });
      expect(await client.next()).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });
    }
  });

  it("are closed with 4004 when their access token is revoked", async () => {
    const { players } = await kit.game(1);
    const { client } = await gameClient(players[0]!);
    await revokeTokens({ db: app.db, actor: null }, [tokenIdOf(players[0]!.token)!]);
    expect(await client.closeCode()).toBe(GatewayCloseCodes.AuthenticationFailed);
  });
});
