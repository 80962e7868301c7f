import { describe, expect, it } from "vitest";
import { lobbyMessageWriter } from "~/server/lobbies/lobby-message-writer.ts";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { lobbyKit, UNKNOWN_LOBBY } from "~/test/lobby-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = lobbyKit(app);

const message = (lobbyId: string, authorId: string, content: string) => ({
  id: newId(),
  lobbyId,
  authorId,
  content,
  flags: 0,
  metadata: null,
  moderationMetadata: null,
  forwardedMessageId: null,
  forwardError: null,
  createdAt: new Date(),
});

describe("lobby messages written together", () => {
  it("writes messages that arrive at once in one change, each with its event and its own outcome", async () => {
    const { server, players } = await kit.game(2);
    const [a, b] = players;
    const live = await kit.lobby(server, { members: [{ id: a!.user.id }, { id: b!.user.id }] });
    const ended = await kit.lobby(server, { members: [{ id: a!.user.id }] });
    const liveRow = await app.db.lobby.findUniqueOrThrow({ where: { id: live.id } });
    const endedRow = await app.db.lobby.findUniqueOrThrow({ where: { id: ended.id } });
    await server.delete(`/lobbies/${ended.id}`);

    const writer = lobbyMessageWriter(app.db);
    const outcomes = await Promise.allSettled([
      writer.write(liveRow, message(live.id, a!.user.id, "one")),
      writer.write(endedRow, message(ended.id, a!.user.id, "lost")),
      writer.write(liveRow, message(live.id, b!.user.id, "two")),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject(UNKNOWN_LOBBY);
    const written = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value.object] : []));
    expect(written.map((object) => [object.content, object.author.id])).toEqual([
      ["one", a!.user.id],
      ["two", b!.user.id],
    ]);
    // In arrival order, the lost one left out.
    const events = (await app.db.event.findMany({ where: { type: LobbyEvents.MessageCreate }, orderBy: { seq: "asc" } })).slice(-2);
    expect(events.map((event) => JSON.parse(event.data).content)).toEqual(["one", "two"]);
    expect(events[1]!.seq - events[0]!.seq).toBe(1);
    expect((await app.db.lobbyMessage.findMany({ orderBy: { id: "asc" } })).map((row) => row.content)).toEqual(["one", "two"]);
    // Over REST the ended lobby is unknown.
    expect((await a!.api.post(`/lobbies/${ended.id}/messages`, { content: "late" })).body).toMatchObject(UNKNOWN_LOBBY);
  });
});
