import { randomBytes } from "node:crypto";
import { createUser, issueBearerToken } from "~/server/applications/application.service.ts";
import type { OAuth2Scope } from "~/server/auth/actor.ts";
import { runChange } from "~/server/events/change.ts";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { makeBot } from "./factories.ts";
import { bearer, bot } from "./rest-client.ts";
import type { TestApp } from "./test-app.ts";

export const UNKNOWN_LOBBY = { code: 10031, message: "Unknown Lobby" };
export const UNKNOWN_USER = { code: 10013, message: "Unknown User" };

/** Applications with their game server (Bot) and players (Bearer tokens of that application). */
export function lobbyKit(app: TestApp) {
  /** A player of `applicationId`: a user with a Bearer token the game client got for them. */
  async function player(applicationId: string, scopes: OAuth2Scope[] = ["identify", "sdk.social_layer"]) {
    const user = await createUser(app.db, { username: `player_${randomBytes(4).toString("hex")}` });
    const token = await issueBearerToken({ db: app.db, actor: null }, { userId: user.id, applicationId, scopes });
    return { user, token, api: app.as(bearer(token)) };
  }

  /** A game: its application, the game server's client, and `players` players. */
  async function game(players = 2) {
    const made = await makeBot(app.db);
    const server = app.as(bot(made.token));
    const list = [];
    for (let i = 0; i < players; i += 1) list.push(await player(made.application.id));
    return { ...made, server, players: list };
  }

  /** A lobby made by the game server with the given members. */
  async function lobby(server: ReturnType<TestApp["as"]>, body: Record<string, unknown> = {}) {
    const created = await server.post("/lobbies", body);
    if (created.status !== 200) throw new Error(`lobby create failed: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body as {
      id: string;
      application_id: string;
      metadata: Record<string, string> | null;
      members: { id: string; metadata: unknown; flags: number }[];
    };
  }

  /**
   * Puts users in lobbies directly, as an operator would, in bulk (caps need hundreds), with
   * each member's event as the write guard asks.
   */
  async function seedMembers(rows: { lobbyId: string; userId: string; applicationId: string }[]) {
    await runChange({ db: app.db, actor: null }, async ({ tx, emit }) => {
      await tx.lobbyMember.createMany({ data: rows });
      for (const row of rows) await emit(LobbyEvents.MemberAdd, { lobby_id: row.lobbyId, member: { id: row.userId, metadata: null, flags: 0 } });
    });
  }

  /** Lobby events of one type, oldest first. */
  async function eventsOf(type: string) {
    const rows = await app.db.event.findMany({ where: { type, guildId: null }, orderBy: { seq: "asc" } });
    return rows.map((row) => JSON.parse(row.data) as Record<string, any>);
  }

  return { player, game, lobby, seedMembers, eventsOf };
}
