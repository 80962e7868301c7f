import { describe, expect, it } from "vitest";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { sweepIdleLobbies } from "~/server/lobbies/lobby-sweep.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { dashboardActor } from "~/server/auth/actor.ts";
import { getApplicationLobby, listApplicationLobbyMessages } from "~/server/lobbies/lobby-dashboard.service.ts";
import { until } from "~/test/until.ts";
import { lobbyKit, UNKNOWN_LOBBY } from "~/test/lobby-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = lobbyKit(app);

const expiresAt = async (lobbyId: string) => (await app.db.lobby.findUniqueOrThrow({ where: { id: lobbyId } })).expiresAt.getTime();

/** Moves a lobby's idle clock back, as if its last activity were `seconds` ago (and forgets what the cache saw). */
async function idleFor(lobbyId: string, seconds: number) {
  const lobby = await app.db.lobby.findUniqueOrThrow({ where: { id: lobbyId } });
  const last = new Date(Date.now() - seconds * 1000);
  await app.db.lobby.update({ where: { id: lobbyId }, data: { lastActivityAt: last, expiresAt: new Date(last.getTime() + lobby.idleTimeoutSeconds * 1000) } });
  stateCache(app.db).forgetLobby(lobbyId);
}

describe("idle shutdown", () => {
  it("ends a lobby idle for its timeout: gone on read before any sweep, deleted by the sweep with Lobby Delete", async () => {
    const { server, players } = await kit.game(1);
    const lobby = await kit.lobby(server, { idle_timeout_seconds: 60, members: [{ id: players[0]!.user.id }] });
    await idleFor(lobby.id, 61);
    expect((await server.get(`/lobbies/${lobby.id}`)).body).toMatchObject(UNKNOWN_LOBBY);
    expect((await server.patch(`/lobbies/${lobby.id}`, { metadata: {} })).body).toMatchObject(UNKNOWN_LOBBY);
    expect((await players[0]!.api.post(`/lobbies/${lobby.id}/messages`, { content: "anyone?" })).body).toMatchObject(UNKNOWN_LOBBY);
    expect(await app.db.lobby.count({ where: { id: lobby.id } })).toBe(1);

    expect(await sweepIdleLobbies(app.db)).toBeGreaterThanOrEqual(1);
    expect(await app.db.lobby.count({ where: { id: lobby.id } })).toBe(0);
    expect(await app.db.lobbyMember.count({ where: { lobbyId: lobby.id } })).toBe(0);
    expect((await kit.eventsOf(LobbyEvents.Delete)).filter((e) => e.id === lobby.id)).toEqual([
      { id: lobby.id, application_id: lobby.application_id, reason: "idle" },
    ]);
  });

  it("counts every change and the game's reads as activity, but not the dashboard's", async () => {
    const { server, players, application } = await kit.game(1);
    const player = players[0]!;
    const lobby = await kit.lobby(server, { idle_timeout_seconds: 60, members: [{ id: player.user.id }] });
    const changes: [string, () => Promise<unknown>][] = [
      ["PATCH", () => server.patch(`/lobbies/${lobby.id}`, { metadata: { round: "2" } })],
      ["PUT member", () => server.put(`/lobbies/${lobby.id}/members/${player.user.id}`, { flags: 1 })],
      ["bulk", () => server.post(`/lobbies/${lobby.id}/members/bulk`, [{ id: player.user.id }])],
      ["message", () => player.api.post(`/lobbies/${lobby.id}/messages`, { content: "hi" })],
      ["join", () => player.api.put("/lobbies", { secret: "never-this-lobby" })],
    ];
    for (const [name, change] of changes.slice(0, 4)) {
      await idleFor(lobby.id, 50);
      const before = await expiresAt(lobby.id);
      await change();
      expect(await expiresAt(lobby.id), name).toBeGreaterThan(before + 45_000);
    }
    for (const read of [() => server.get(`/lobbies/${lobby.id}`), () => player.api.get(`/lobbies/${lobby.id}/messages`)]) {
      // One a second per lobby at most.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await idleFor(lobby.id, 50);
      const before = await expiresAt(lobby.id);
      expect((await read()).status).toBe(200);
      // Noted in the background: the read's answer does not wait for it.
      await until(async () => (await expiresAt(lobby.id)) > before + 45_000);
    }
    await idleFor(lobby.id, 50);
    const before = await expiresAt(lobby.id);
    const owner = { db: app.db, actor: dashboardActor(application.ownerId) };
    await getApplicationLobby(owner, { applicationId: application.id, lobbyId: lobby.id });
    await listApplicationLobbyMessages(owner, { applicationId: application.id, lobbyId: lobby.id });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await expiresAt(lobby.id)).toBe(before);
  });

  it("ends each idle lobby once when two sweepers race, and spares lobbies still active", async () => {
    const { server } = await kit.game(0);
    const idle = [
      await kit.lobby(server, { idle_timeout_seconds: 5 }),
      await kit.lobby(server, { idle_timeout_seconds: 5 }),
      await kit.lobby(server, { idle_timeout_seconds: 5 }),
    ];
    const active = await kit.lobby(server, { idle_timeout_seconds: 3600 });
    // The clock moved ten seconds on: the sweepers see the short lobbies as idle.
    const later = new Date(Date.now() + 10_000);
    const [first, second] = await Promise.all([sweepIdleLobbies(app.db, later), sweepIdleLobbies(app.db, later)]);
    expect(first + second).toBeGreaterThanOrEqual(3);
    for (const lobby of idle) {
      expect(await app.db.lobby.count({ where: { id: lobby.id } })).toBe(0);
      expect((await kit.eventsOf(LobbyEvents.Delete)).filter((e) => e.id === lobby.id)).toHaveLength(1);
    }
    expect((await server.get(`/lobbies/${active.id}`)).status).toBe(200);
  });

  it("lets a secret's lobby that went idle be made anew by the next player", async () => {
    const { players } = await kit.game(2);
    const first = await players[0]!.api.put("/lobbies", { secret: "room", idle_timeout_seconds: 30 });
    await idleFor(first.body.id, 31);
    const next = await players[1]!.api.put("/lobbies", { secret: "room" });
    expect(next.status).toBe(200);
    expect(next.body.id).not.toBe(first.body.id);
    expect(next.body.members.map((m: { id: string }) => m.id)).toEqual([players[1]!.user.id]);
    expect((await kit.eventsOf(LobbyEvents.Delete)).filter((e) => e.id === first.body.id)).toEqual([
      { id: first.body.id, application_id: first.body.application_id, reason: "idle" },
    ]);
  });
});
