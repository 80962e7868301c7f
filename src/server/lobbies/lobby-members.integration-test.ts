import { describe, expect, it } from "vitest";
import { LOBBIES_PER_USER_MAX, LOBBY_MEMBERS_MAX, LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { makeBot } from "~/test/factories.ts";
import { lobbyKit, UNKNOWN_LOBBY, UNKNOWN_USER } from "~/test/lobby-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = lobbyKit(app);

const memberIds = async (lobbyId: string) =>
  (await app.db.lobbyMember.findMany({ where: { lobbyId }, orderBy: { userId: "asc" } })).map((row) => row.userId).sort();

describe("PUT /lobbies/{lobby.id}/members/{user.id}", () => {
  it("adds a member, then updates only the fields given", async () => {
    const { server, players } = await kit.game(1);
    const user = players[0]!.user;
    const lobby = await kit.lobby(server);
    const added = await server.put(`/lobbies/${lobby.id}/members/${user.id}`, { metadata: { seat: "1" }, flags: 1 });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ id: user.id, metadata: { seat: "1" }, flags: 1 });
    const updated = await server.put(`/lobbies/${lobby.id}/members/${user.id}`, { metadata: { seat: "2" } });
    expect(updated.body).toEqual({ id: user.id, metadata: { seat: "2" }, flags: 1 });
    expect((await server.put(`/lobbies/${lobby.id}/members/${user.id}`)).body).toEqual(updated.body);
    expect((await kit.eventsOf(LobbyEvents.MemberAdd)).filter((e) => e.lobby_id === lobby.id)).toHaveLength(1);
    expect((await kit.eventsOf(LobbyEvents.MemberUpdate)).filter((e) => e.lobby_id === lobby.id).map((e) => e.member.metadata)).toEqual([
      { seat: "2" },
      { seat: "2" },
    ]);
  });

  it("answers 10013 for an unknown user, 10031 for an unknown lobby and 50013 for a bot user", async () => {
    const { server, players } = await kit.game(1);
    const lobby = await kit.lobby(server);
    const unknownUser = await server.put(`/lobbies/${lobby.id}/members/1234567890123`);
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body).toMatchObject(UNKNOWN_USER);
    const unknownLobby = await server.put(`/lobbies/1234567890123/members/${players[0]!.user.id}`);
    expect(unknownLobby.body).toMatchObject(UNKNOWN_LOBBY);
    const other = await makeBot(app.db);
    const botMember = await server.put(`/lobbies/${lobby.id}/members/${other.user.id}`);
    expect(botMember.status).toBe(403);
    expect(botMember.body.code).toBe(50013);
    expect(await memberIds(lobby.id)).toEqual([]);
  });

  it("refuses a user already in 100 lobbies of the application, but not in another application's", async () => {
    const { server, players, application } = await kit.game(1);
    const user = players[0]!.user;
    const lobbies: string[] = [];
    for (let i = 0; i < LOBBIES_PER_USER_MAX; i += 1) lobbies.push((await kit.lobby(server)).id);
    await kit.seedMembers(lobbies.map((lobbyId) => ({ lobbyId, userId: user.id, applicationId: application.id })));
    const next = await kit.lobby(server);
    const refused = await server.put(`/lobbies/${next.id}/members/${user.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors.id._errors[0].code).toBe("LOBBY_USER_LIMIT");
    // Updating one of the 100 is still fine; so is a lobby of another game.
    expect((await server.put(`/lobbies/${lobbies[0]}/members/${user.id}`, { flags: 1 })).status).toBe(200);
    const otherGame = await kit.game(0);
    const elsewhere = await kit.lobby(otherGame.server);
    expect((await otherGame.server.put(`/lobbies/${elsewhere.id}/members/${user.id}`)).status).toBe(200);
    // In a bulk request the capped user is dropped silently.
    const bulk = await server.post(`/lobbies/${next.id}/members/bulk`, [{ id: user.id }]);
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual([]);
  });

  it("refuses a member past the lobby's 1000", async () => {
    const { server, application, players } = await kit.game(1);
    const lobby = await kit.lobby(server);
    const crowd = await app.db.user.createManyAndReturn({
      data: Array.from({ length: LOBBY_MEMBERS_MAX }, (_, i) => ({ id: String(9_000_000_000_000 + i), username: `crowd${i}` })),
    });
    await kit.seedMembers(crowd.map((user) => ({ lobbyId: lobby.id, userId: user.id, applicationId: application.id })));
    const refused = await server.put(`/lobbies/${lobby.id}/members/${players[0]!.user.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors.id._errors[0].code).toBe("LOBBY_FULL");
    expect((await server.get(`/lobbies/${lobby.id}`)).body.members).toHaveLength(LOBBY_MEMBERS_MAX);
  });
});

describe("DELETE /lobbies/{lobby.id}/members/{user.id} and /members/@me", () => {
  it("removes a member, is safe when not a member and fails when the lobby is not there", async () => {
    const { server, players } = await kit.game(2);
    const [a, b] = players;
    const lobby = await kit.lobby(server, { members: [{ id: a!.user.id }, { id: b!.user.id }] });
    expect((await server.delete(`/lobbies/${lobby.id}/members/${a!.user.id}`)).status).toBe(204);
    expect((await server.delete(`/lobbies/${lobby.id}/members/${a!.user.id}`)).status).toBe(204);
    expect((await b!.api.delete(`/lobbies/${lobby.id}/members/@me`)).status).toBe(204);
    expect((await b!.api.delete(`/lobbies/${lobby.id}/members/@me`)).status).toBe(204);
    expect(await memberIds(lobby.id)).toEqual([]);
    expect((await kit.eventsOf(LobbyEvents.MemberRemove)).filter((e) => e.lobby_id === lobby.id)).toHaveLength(2);
    expect((await server.delete(`/lobbies/1234567890123/members/${a!.user.id}`)).body).toMatchObject(UNKNOWN_LOBBY);
    expect((await b!.api.delete(`/lobbies/1234567890123/members/@me`)).body).toMatchObject(UNKNOWN_LOBBY);
  });

  it("lets players leave only with a Bearer token with sdk.social_layer", async () => {
    const { server, players, token, application } = await kit.game(1);
    const lobby = await kit.lobby(server, { members: [{ id: players[0]!.user.id }] });
    expect((await app.as(bot(token)).delete(`/lobbies/${lobby.id}/members/@me`)).status).toBe(401);
    const unscoped = await kit.player(application.id, ["identify"]);
    const missing = await unscoped.api.delete(`/lobbies/${lobby.id}/members/@me`);
    expect(missing.status).toBe(403);
    expect(missing.body.code).toBe(50001);
  });
});

describe("POST /lobbies/{lobby.id}/members/bulk", () => {
  type Case = { name: string; body: (ids: Ids) => unknown[]; status: number; answer?: (ids: Ids) => unknown; members?: (ids: Ids) => string[] };
  type Ids = { a: string; b: string; c: string; botUser: string };
  const cases: Case[] = [
    {
      name: "upserts new and existing members, answering them",
      body: ({ a, c }) => [
        { id: a, metadata: { k: "v" } },
        { id: c, flags: 1 },
      ],
      status: 200,
      answer: ({ a, c }) => [
        { id: a, metadata: { k: "v" }, flags: 0 },
        { id: c, metadata: null, flags: 1 },
      ],
      members: ({ a, b, c }) => [a, b, c],
    },
    {
      name: "removes with remove_member and leaves removed users out of the answer",
      body: ({ b, c }) => [{ id: b, remove_member: true }, { id: c }],
      status: 200,
      answer: ({ c }) => [{ id: c, metadata: null, flags: 0 }],
      members: ({ a, c }) => [a, c],
    },
    {
      name: "removing a non-member changes nothing",
      body: ({ c }) => [{ id: c, remove_member: true }],
      status: 200,
      answer: () => [],
      members: ({ a, b }) => [a, b],
    },
    {
      name: "drops a user failing the permission check (a bot)",
      body: ({ botUser, c }) => [{ id: botUser }, { id: c }],
      status: 200,
      answer: ({ c }) => [{ id: c, metadata: null, flags: 0 }],
      members: ({ a, b, c }) => [a, b, c],
    },
    {
      name: "fails whole with 10013 for an unknown user, removals included",
      body: ({ a, c }) => [{ id: a, remove_member: true }, { id: c }, { id: "1234567890123" }],
      status: 404,
      answer: () => expect.objectContaining(UNKNOWN_USER),
      members: ({ a, b }) => [a, b],
    },
  ];

  for (const testCase of cases) {
    it(testCase.name, async () => {
      const { server, players } = await kit.game(3);
      const botUser = (await makeBot(app.db)).user.id;
      const ids: Ids = { a: players[0]!.user.id, b: players[1]!.user.id, c: players[2]!.user.id, botUser };
      const lobby = await kit.lobby(server, { members: [{ id: ids.a }, { id: ids.b }] });
      const response = await server.post(`/lobbies/${lobby.id}/members/bulk`, testCase.body(ids));
      expect(response.status).toBe(testCase.status);
      if (testCase.answer) expect(response.body).toEqual(testCase.answer(ids));
      if (testCase.members) expect(await memberIds(lobby.id)).toEqual(testCase.members(ids).sort());
    });
  }

  it("takes 1 to 25 items", async () => {
    const { server } = await kit.game(0);
    const lobby = await kit.lobby(server);
    for (const body of [[], Array.from({ length: 26 }, () => ({ id: "1234567890123" })), { id: "1" }]) {
      const response = await server.post(`/lobbies/${lobby.id}/members/bulk`, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(50035);
    }
  });
});

describe("PUT /lobbies (create or join by secret)", () => {
  it("creates the application's lobby for a secret, then lets others join it", async () => {
    const { players, application } = await kit.game(2);
    const [a, b] = players;
    const created = await a!.api.put("/lobbies", {
      secret: "match-42",
      lobby_metadata: { map: "dust" },
      member_metadata: { elo: "1200" },
      idle_timeout_seconds: 120,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      application_id: application.id,
      metadata: { map: "dust" },
      members: [{ id: a!.user.id, metadata: { elo: "1200" }, flags: 0 }],
    });
    const joined = await b!.api.put("/lobbies", { secret: "match-42", member_metadata: { elo: "900" } });
    expect(joined.body.id).toBe(created.body.id);
    expect(joined.body.metadata).toEqual({ map: "dust" });
    expect(joined.body.members.map((m: { id: string }) => m.id)).toEqual([a!.user.id, b!.user.id]);
    // lobby_metadata overwrites; joining again updates the caller's metadata only.
    const again = await b!.api.put("/lobbies", { secret: "match-42", lobby_metadata: { map: "nuke" }, member_metadata: { elo: "950" } });
    expect(again.body.metadata).toEqual({ map: "nuke" });
    expect(again.body.members).toContainEqual({ id: b!.user.id, metadata: { elo: "950" }, flags: 0 });
    expect(again.body.members).toContainEqual({ id: a!.user.id, metadata: { elo: "1200" }, flags: 0 });
  });

  it("keeps secrets per application", async () => {
    const first = await kit.game(1);
    const second = await kit.game(1);
    const one = await first.players[0]!.api.put("/lobbies", { secret: "same" });
    const two = await second.players[0]!.api.put("/lobbies", { secret: "same" });
    expect(one.body.id).not.toBe(two.body.id);
    expect(two.body.application_id).toBe(second.application.id);
  });

  it("makes one lobby when two players create the same secret at once", async () => {
    const { players } = await kit.game(2);
    const [one, two] = await Promise.all(players.map((player) => player.api.put("/lobbies", { secret: "race" })));
    expect(one!.status).toBe(200);
    expect(two!.status).toBe(200);
    expect(one!.body.id).toBe(two!.body.id);
  });

  it("validates the secret and takes only a Bearer token of an application with sdk.social_layer", async () => {
    const { players, token, application } = await kit.game(1);
    const api = players[0]!.api;
    for (const body of [{}, { secret: "" }, { secret: "s".repeat(251) }, { secret: 5 }]) {
      const response = await api.put("/lobbies", body);
      expect(response.status).toBe(400);
      expect(response.body.errors).toHaveProperty("secret");
    }
    expect((await api.put("/lobbies", { secret: "s".repeat(250) })).status).toBe(200);
    expect((await app.as(bot(token)).put("/lobbies", { secret: "x" })).status).toBe(401);
    const unscoped = await kit.player(application.id, ["identify"]);
    expect((await unscoped.api.put("/lobbies", { secret: "x" })).body.code).toBe(50001);
  });
});
