import { describe, expect, it } from "vitest";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { lobbyKit, UNKNOWN_LOBBY, UNKNOWN_USER } from "~/test/lobby-kit.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = lobbyKit(app);

describe("POST /lobbies and GET /lobbies/{lobby.id}", () => {
  it("creates a lobby of the bot's application with its members, and reads it back", async () => {
    const { application, server, players } = await kit.game(2);
    const [a, b] = players;
    const created = await server.post("/lobbies", {
      metadata: { mode: "ranked" },
      members: [{ id: a!.user.id, metadata: { team: "red" }, flags: 1 }, { id: b!.user.id }],
      idle_timeout_seconds: 600,
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      application_id: application.id,
      metadata: { mode: "ranked" },
      members: [
        { id: a!.user.id, metadata: { team: "red" }, flags: 1 },
        { id: b!.user.id, metadata: null, flags: 0 },
      ],
      flags: 0,
    });
    const read = await server.get(`/lobbies/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const row = await app.db.lobby.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.expiresAt.getTime() - row.lastActivityAt.getTime()).toBe(600_000);

    expect(await kit.eventsOf(LobbyEvents.Create)).toContainEqual(created.body);
    const adds = (await kit.eventsOf(LobbyEvents.MemberAdd)).filter((e) => e.lobby_id === created.body.id);
    expect(adds.map((e) => e.member.id)).toEqual([a!.user.id, b!.user.id]);
  });

  it("defaults to no metadata, no members and a five-minute idle timeout", async () => {
    const { server } = await kit.game(0);
    const created = await server.post("/lobbies");
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ metadata: null, members: [], flags: 0 });
    const row = await app.db.lobby.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.idleTimeoutSeconds).toBe(300);
  });

  it("refuses bodies past the limits of spec 8 with field errors", async () => {
    const { server } = await kit.game(0);
    const cases: [unknown, string][] = [
      [{ metadata: { k: "v".repeat(1000) } }, "metadata"],
      [{ members: Array.from({ length: 26 }, (_, i) => ({ id: String(1000 + i) })) }, "members"],
      [{ idle_timeout_seconds: 4 }, "idle_timeout_seconds"],
      [{ idle_timeout_seconds: 604_801 }, "idle_timeout_seconds"],
      [{ idle_timeout_seconds: "60" }, "idle_timeout_seconds"],
      [{ members: [{ id: "1", flags: 2 }] }, "members"],
      [{ metadata: { k: 5 } }, "metadata"],
    ];
    for (const [body, field] of cases) {
      const response = await server.post("/lobbies", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe(50035);
      expect(Object.keys(response.body.errors)).toContain(field);
    }
    // 1000 characters exactly, keys included, is allowed.
    expect((await server.post("/lobbies", { metadata: { k: "v".repeat(999) } })).status).toBe(200);
    expect(await app.db.lobby.count({ where: { metadata: { contains: "vvvvvvvvvvvv" } } })).toBe(1);
  });

  it("refuses an unknown user in the members with 10013, making nothing", async () => {
    const { server, application } = await kit.game(0);
    const response = await server.post("/lobbies", { members: [{ id: "1234567890123" }] });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject(UNKNOWN_USER);
    expect(await app.db.lobby.count({ where: { applicationId: application.id } })).toBe(0);
  });

  it("is unknown (10031) to another application and to unknown ids", async () => {
    const first = await kit.game(0);
    const second = await kit.game(0);
    const lobby = await kit.lobby(first.server);
    for (const response of [
      await second.server.get(`/lobbies/${lobby.id}`),
      await first.server.get("/lobbies/1234567890123"),
      await first.server.get("/lobbies/not-an-id"),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject(UNKNOWN_LOBBY);
    }
    expect((await second.server.patch(`/lobbies/${lobby.id}`, { metadata: {} })).status).toBe(404);
    // Deleting another application's lobby is "already gone": nothing happens to it.
    expect((await second.server.delete(`/lobbies/${lobby.id}`)).status).toBe(204);
    expect((await first.server.get(`/lobbies/${lobby.id}`)).status).toBe(200);
  });

  it("takes only the Bot token for the game server's operations", async () => {
    const { server, players, token } = await kit.game(1);
    const lobby = await kit.lobby(server);
    const player = players[0]!;
    for (const [method, path] of [
      ["POST", "/lobbies"],
      ["GET", `/lobbies/${lobby.id}`],
      ["PATCH", `/lobbies/${lobby.id}`],
      ["DELETE", `/lobbies/${lobby.id}`],
      ["PUT", `/lobbies/${lobby.id}/members/${player.user.id}`],
      ["DELETE", `/lobbies/${lobby.id}/members/${player.user.id}`],
      ["POST", `/lobbies/${lobby.id}/members/bulk`],
      ["POST", `/lobbies/${lobby.id}/members/${player.user.id}/invites`],
      ["PUT", `/lobbies/${lobby.id}/messages/1234567890123/moderation-metadata`],
    ] as const) {
      const asPlayer = await app.dispatch(new Request(`http://guildhall.test/api/v10${path}`, { method, headers: { authorization: bearer(player.token) } }));
      expect(asPlayer.status, `${method} ${path} with a Bearer token`).toBe(401);
      const anonymous = await app.dispatch(new Request(`http://guildhall.test/api/v10${path}`, { method }));
      expect(anonymous.status, `${method} ${path} without a token`).toBe(401);
    }
    expect((await app.as(bot(token)).get(`/lobbies/${lobby.id}`)).status).toBe(200);
  });
});

describe("PATCH /lobbies/{lobby.id}", () => {
  it("overwrites metadata and replaces the members: those not listed leave", async () => {
    const { server, players } = await kit.game(3);
    const [a, b, c] = players;
    const lobby = await kit.lobby(server, { metadata: { map: "dust" }, members: [{ id: a!.user.id, metadata: { team: "red" } }, { id: b!.user.id }] });
    const patched = await server.patch(`/lobbies/${lobby.id}`, {
      metadata: { mode: "casual" },
      members: [{ id: b!.user.id, flags: 1 }, { id: c!.user.id }],
      idle_timeout_seconds: 60,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata).toEqual({ mode: "casual" });
    expect(patched.body.members).toEqual([
      { id: b!.user.id, metadata: null, flags: 1 },
      { id: c!.user.id, metadata: null, flags: 0 },
    ]);
    const removed = (await kit.eventsOf(LobbyEvents.MemberRemove)).filter((e) => e.lobby_id === lobby.id);
    expect(removed.map((e) => e.member.id)).toEqual([a!.user.id]);
    expect((await app.db.lobby.findUniqueOrThrow({ where: { id: lobby.id } })).idleTimeoutSeconds).toBe(60);

    // Without members the list stays; null metadata clears it.
    const cleared = await server.patch(`/lobbies/${lobby.id}`, { metadata: null });
    expect(cleared.body).toMatchObject({ metadata: null, members: patched.body.members });
    expect((await kit.eventsOf(LobbyEvents.Update)).filter((e) => e.id === lobby.id)).toHaveLength(2);
  });
});

describe("DELETE /lobbies/{lobby.id}", () => {
  it("deletes the lobby with its members and messages, and is safe when already deleted", async () => {
    const { server, players } = await kit.game(1);
    const lobby = await kit.lobby(server, { members: [{ id: players[0]!.user.id }] });
    await players[0]!.api.post(`/lobbies/${lobby.id}/messages`, { content: "gg" });
    expect((await server.delete(`/lobbies/${lobby.id}`)).status).toBe(204);
    expect((await server.get(`/lobbies/${lobby.id}`)).body).toMatchObject(UNKNOWN_LOBBY);
    expect(await app.db.lobbyMember.count({ where: { lobbyId: lobby.id } })).toBe(0);
    expect(await app.db.lobbyMessage.count({ where: { lobbyId: lobby.id } })).toBe(0);
    expect((await server.delete(`/lobbies/${lobby.id}`)).status).toBe(204);
    expect((await kit.eventsOf(LobbyEvents.Delete)).filter((e) => e.id === lobby.id)).toEqual([
      { id: lobby.id, application_id: lobby.application_id, reason: "deleted" },
    ]);
  });
});
