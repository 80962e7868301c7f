import { describe, expect, it } from "vitest";
import type { StoredEvent } from "~/server/events/event-map.ts";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { hearsLobbyEvent, lobbiesAtSequence, needsLobbyApplication, toRoutedLobbyEvent } from "./lobby-route-decision.ts";

const APP = "901";
const OTHER_APP = "902";
const PLAYER = "700";
const LOBBY = "500";

function player(lobbyIds: string[] = []) {
  return { applicationId: APP, player: { userId: PLAYER, lobbyIds: new Set(lobbyIds) } };
}
const bot = { applicationId: APP };

function event(type: string, data: object) {
  const routed = toRoutedLobbyEvent({ seq: 1, type, guildId: null, data, createdAt: "2026-01-01T00:00:00.000Z" } as StoredEvent);
  if (!routed) throw new Error(`${type} is not a lobby event`);
  return routed;
}
const member = (type: string, id: string) => event(type, { lobby_id: LOBBY, member: { id, metadata: null, flags: 0 } });
const lobby = (type: string, memberIds: string[], applicationId = APP) =>
  event(type, { id: LOBBY, application_id: applicationId, metadata: null, members: memberIds.map((id) => ({ id, metadata: null, flags: 0 })), flags: 0 });
const message = (type: string) => event(type, { id: "1", lobby_id: LOBBY, application_id: APP, content: "hi", metadata: { k: "v" } });
const KNOWN = { lobbyApplicationId: null };

describe("hearsLobbyEvent", () => {
  it("sends a lobby's events to its members' sessions only, never to bots", () => {
    for (const e of [
      message(LobbyEvents.MessageCreate),
      message(LobbyEvents.MessageUpdate),
      member(LobbyEvents.MemberUpdate, "1"),
      member(LobbyEvents.MemberAdd, "1"),
    ]) {
      expect(hearsLobbyEvent(e, player([LOBBY]), KNOWN)).toEqual({ dispatch: true, membership: null });
      expect(hearsLobbyEvent(e, player(["other"]), KNOWN)).toEqual({ dispatch: false, membership: null });
      expect(hearsLobbyEvent(e, bot, KNOWN)).toEqual({ dispatch: false, membership: null });
    }
    expect(toRoutedLobbyEvent({ seq: 1, type: "GUILD_UPDATE", guildId: "1", data: { id: "1" }, createdAt: "" } as StoredEvent)).toBeNull();
  });

  it("lets the player join by its own Lobby Member Add, only to a lobby of the session's application", () => {
    const add = member(LobbyEvents.MemberAdd, PLAYER);
    expect(needsLobbyApplication(add, player())).toBe(true);
    expect(needsLobbyApplication(add, player([LOBBY]))).toBe(false);
    expect(hearsLobbyEvent(add, player(), { lobbyApplicationId: APP })).toEqual({ dispatch: true, membership: "join" });
    expect(hearsLobbyEvent(add, player(), { lobbyApplicationId: OTHER_APP })).toEqual({ dispatch: false, membership: null });
    // The lobby is gone already.
    expect(hearsLobbyEvent(add, player(), { lobbyApplicationId: null })).toEqual({ dispatch: false, membership: null });
  });

  it("ends with the player's own removal or the lobby's deletion, which it still hears", () => {
    expect(hearsLobbyEvent(member(LobbyEvents.MemberRemove, PLAYER), player([LOBBY]), KNOWN)).toEqual({ dispatch: true, membership: "leave" });
    expect(hearsLobbyEvent(member(LobbyEvents.MemberRemove, "1"), player([LOBBY]), KNOWN)).toEqual({ dispatch: true, membership: null });
    expect(hearsLobbyEvent(member(LobbyEvents.MemberRemove, PLAYER), player(), KNOWN)).toEqual({ dispatch: false, membership: null });
    const deleted = event(LobbyEvents.Delete, { id: LOBBY, application_id: APP, reason: "idle" });
    expect(hearsLobbyEvent(deleted, player([LOBBY]), KNOWN)).toEqual({ dispatch: true, membership: "leave" });
    expect(hearsLobbyEvent(deleted, player(), KNOWN)).toEqual({ dispatch: false, membership: null });
  });

  it("takes Lobby Create and Update's member list as the membership", () => {
    expect(hearsLobbyEvent(lobby(LobbyEvents.Create, [PLAYER]), player(), KNOWN)).toEqual({ dispatch: true, membership: "join" });
    expect(hearsLobbyEvent(lobby(LobbyEvents.Update, [PLAYER, "1"]), player([LOBBY]), KNOWN)).toEqual({ dispatch: true, membership: null });
    expect(hearsLobbyEvent(lobby(LobbyEvents.Update, ["1"]), player([LOBBY]), KNOWN)).toEqual({ dispatch: false, membership: "leave" });
    expect(hearsLobbyEvent(lobby(LobbyEvents.Create, [PLAYER], OTHER_APP), player(), KNOWN)).toEqual({ dispatch: false, membership: null });
  });
});

describe("lobbiesAtSequence", () => {
  it("undoes the player's own membership changes since, by the first change of each lobby", () => {
    const own = (lobbyId: string) => lobbyId !== "foreign";
    const at = lobbiesAtSequence(
      ["kept", "joined", "rejoined"],
      [
        { lobbyId: "joined", change: "add" },
        { lobbyId: "left", change: "remove" },
        { lobbyId: "rejoined", change: "remove" },
        { lobbyId: "rejoined", change: "add" },
        { lobbyId: "brief", change: "add" },
        { lobbyId: "brief", change: "remove" },
        { lobbyId: "foreign", change: "remove" },
      ],
      own,
    );
    expect([...at].sort()).toEqual(["kept", "left", "rejoined"]);
  });
});
