import { describe, expect, it } from "vitest";
import { runChange } from "~/server/events/change.ts";
import { touchLobby } from "~/server/lobbies/lobby-access.ts";
import { toLobbyMemberObject } from "~/server/lobbies/lobby.dto.ts";
import {
  countLobbiesOf,
  countLobbyMembers,
  countUsers,
  insertLobbyMember,
  lockUsers,
  readLiveLobby,
  readLobbyMembers,
  updateLobbyMember,
} from "~/server/lobbies/lobby-queries.ts";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { lobbyKit } from "~/test/lobby-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = lobbyKit(app);

// Rows read through a change's statements must be what Prisma reads: a column a mapper
// misses (an integer, a date, a nullable text) fails here on either database.
describe("a lobby change's statements", () => {
  it("read and write lobbies and members as Prisma does", async () => {
    const { server, players, application, user: botUser } = await kit.game(3);
    const [seated, plain, newcomer] = players.map((player) => player.user);
    if (!seated || !plain || !newcomer) throw new Error("three players");
    const made = await kit.lobby(server, {
      metadata: { mode: "ranked" },
      idle_timeout_seconds: 600,
      members: [{ id: seated.id, metadata: { seat: "1" }, flags: 1 }, { id: plain.id }],
    });
    await app.db.lobby.update({ where: { id: made.id }, data: { secret: "s3cret", linkedById: seated.id } });
    const lobbyId = made.id;
    const applicationId = application.id;
    const lobbyBefore = await app.db.lobby.findUniqueOrThrow({ where: { id: lobbyId } });
    const membersBefore = await app.db.lobbyMember.findMany({ where: { lobbyId }, orderBy: { userId: "asc" } });

    const read = await runChange({ db: app.db, actor: null }, async ({ sql, emit }) => {
      const live = await readLiveLobby(sql, applicationId, lobbyId, new Date());
      const gone = await readLiveLobby(sql, applicationId, lobbyId, new Date(Date.now() + 3_600_000));
      const members = await readLobbyMembers(sql, lobbyId);
      const named = await readLobbyMembers(sql, lobbyId, [seated.id, newcomer.id]);
      const users = await lockUsers(sql, [seated.id, botUser.id, "1"]);
      const known = await countUsers(sql, [seated.id, botUser.id, "1"]);
      const size = await countLobbyMembers(sql, lobbyId);
      const lobbiesOf = await countLobbiesOf(sql, applicationId, [seated.id, newcomer.id]);
      const updated = await updateLobbyMember(sql, lobbyId, seated.id, { metadata: JSON.stringify({ seat: "2" }), flags: 0 });
      const unchanged = await updateLobbyMember(sql, lobbyId, plain.id, {});
      const added = await insertLobbyMember(sql, { lobbyId, userId: newcomer.id, applicationId, metadata: JSON.stringify({ seat: "3" }), flags: 1 });
      for (const row of [updated, added]) await emit(LobbyEvents.MemberUpdate, { lobby_id: lobbyId, member: toLobbyMemberObject(row) });
      const touched = await touchLobby(sql, applicationId, lobbyId, { idleTimeoutSeconds: 900 });
      return { live, gone, members, named, users, known, size, lobbiesOf, updated, unchanged, added, touched };
    });

    expect(read.live).toEqual(lobbyBefore);
    expect(read.live).toMatchObject({ secret: "s3cret", linkedById: seated.id, linkedChannelId: null, flags: 0, metadata: '{"mode":"ranked"}' });
    expect(read.gone).toBeNull();
    expect(read.touched).toEqual(await app.db.lobby.findUniqueOrThrow({ where: { id: lobbyId } }));
    expect(read.touched.idleTimeoutSeconds).toBe(900);

    expect(read.members.toSorted((a, b) => a.userId.localeCompare(b.userId))).toEqual(membersBefore);
    expect(read.members.find((row) => row.userId === seated.id)).toMatchObject({ metadata: '{"seat":"1"}', flags: 1, applicationId });
    expect(read.named).toEqual(membersBefore.filter((row) => row.userId === seated.id));
    const stored = new Map((await app.db.lobbyMember.findMany({ where: { lobbyId } })).map((row) => [row.userId, row]));
    expect(read.updated).toEqual(stored.get(seated.id));
    expect(read.updated).toMatchObject({ metadata: '{"seat":"2"}', flags: 0 });
    expect(read.unchanged).toEqual(stored.get(plain.id));
    expect(read.added).toEqual(stored.get(newcomer.id));
    expect(read.added).toMatchObject({ metadata: '{"seat":"3"}', flags: 1, applicationId });

    expect(read.users.toSorted((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: seated.id, bot: false, system: false },
        { id: botUser.id, bot: true, system: false },
      ].toSorted((a, b) => a.id.localeCompare(b.id)),
    );
    expect(read.known).toBe(2);
    expect(read.size).toBe(2);
    expect(read.lobbiesOf).toEqual(new Map([[seated.id, 1]]));
  });
});
