// Game clients on the gateway: a user's OAuth2 access token with sdk.social_layer, sent as
// "Bearer <token>", starts a session for that user (the player) which hears the lobbies
// the player is in (lobby-route-decision.ts) and nothing of guilds.
import { randomBytes } from "node:crypto";
import { GatewayCloseCodes, type GatewayReadyDispatchData } from "discord-api-types/v10";
import { hasScope } from "~/server/auth/actor.ts";
import { authenticate, tokenIdOf } from "~/server/auth/tokens.service.ts";
import type { Db } from "~/server/db/client.ts";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import { GatewayCloseError } from "./close-codes.ts";
import type { GatewaySessionView } from "./gateway-types.ts";
import type { HandshakeDeps, Identified } from "./handshake-deps.ts";
import { lobbiesAtSequence, type LaterMembership } from "./lobby-route-decision.ts";
import { claimPlayerSessionStart } from "./session-start-limit.ts";
import { sessionView, storeSession, type StoredSession } from "./session-store.ts";

const BEARER = /^Bearer\s+/i;

/** Whether IDENTIFY or RESUME carries a game client's token ("Bearer <access token>") rather than a bot's. */
export function isPlayerToken(token: string): boolean {
  return BEARER.test(token);
}

/** Who a game client's token speaks for. */
export type Player = { applicationId: string; userId: string; tokenId: string };

/** A user's access token of an application with sdk.social_layer; anything else closes with 4004. */
export async function playerOf(db: Db, token: string): Promise<Player> {
  const bare = token.replace(BEARER, "");
  const actor = await authenticate(db, `Bearer ${bare}`);
  if (actor?.kind !== "bearer" || !actor.applicationId || !hasScope(actor, "sdk.social_layer")) {
    throw new GatewayCloseError(GatewayCloseCodes.AuthenticationFailed);
  }
  return { applicationId: actor.applicationId, userId: actor.userId, tokenId: tokenIdOf(bare)! };
}

/** The lobbies of the application the player is in now. */
async function currentLobbies(db: Db, applicationId: string, userId: string): Promise<string[]> {
  const rows = await db.lobbyMember.findMany({ where: { applicationId, userId }, select: { lobbyId: true } });
  return rows.map((row) => row.lobbyId);
}

/**
 * Starts a game client's session: READY names the player, with no guilds. Intents do not
 * apply (a player hears lobby events only), and the session counts against the
 * application's daily session start budget: null when it is spent.
 */
export async function identifyPlayer(deps: HandshakeDeps, player: Player): Promise<Identified | null> {
  const { db } = deps;
  const [app, user] = await Promise.all([
    db.application.findUnique({ where: { id: player.applicationId } }),
    db.user.findUnique({ where: { id: player.userId } }),
  ]);
  if (!app || !user) throw new GatewayCloseError(GatewayCloseCodes.AuthenticationFailed);
  const now = deps.now();
  if (!(await claimPlayerSessionStart(db, app.id, deps.sessionStart, now))) return null;
  const session: StoredSession = {
    id: randomBytes(16).toString("hex"),
    applicationId: app.id,
    kind: "user",
    botUserId: user.id,
    intents: 0,
    shardId: 0,
    shardCount: 1,
    largeThreshold: 50,
    messageContent: false,
    channelObfuscation: false,
  };
  const lobbyIds = await currentLobbies(db, app.id, user.id);
  await storeSession(db, session, now);
  const ready: GatewayReadyDispatchData = {
    v: 10,
    user: toUserObject(user),
    guilds: [],
    session_id: session.id,
    resume_gateway_url: deps.resumeGatewayUrl,
    application: { id: app.id, flags: app.flags, flags_new: String(app.flags) },
  };
  return { view: sessionView(session, { lobbyIds }), ready, tokenId: player.tokenId };
}

/**
 * A resumed game client's session, with the player's lobbies as they were at `seq`, so that
 * the replay tells it what it missed as it would have heard it live: events of a lobby left
 * since, up to its removal, and none of a lobby joined since, before its joining.
 */
export async function resumedPlayerView(db: Db, session: StoredSession, seq: number): Promise<GatewaySessionView> {
  const userId = session.botUserId;
  const current = await currentLobbies(db, session.applicationId, userId);
  const rows = await db.event.findMany({
    where: { seq: { gt: seq }, guildId: null, type: { in: [LobbyEvents.MemberAdd, LobbyEvents.MemberRemove] }, data: { contains: `"id":"${userId}"` } },
    orderBy: { seq: "asc" },
    select: { type: true, data: true },
  });
  const later: LaterMembership[] = [];
  for (const row of rows) {
    const data = JSON.parse(row.data) as { lobby_id: string; member: { id: string } };
    if (data.member.id === userId) later.push({ lobbyId: data.lobby_id, change: row.type === LobbyEvents.MemberAdd ? "add" : "remove" });
  }
  const left = [...new Set(later.filter((change) => change.change === "remove").map((change) => change.lobbyId))];
  const applications = await applicationsOf(db, left, seq);
  return sessionView(session, { lobbyIds: lobbiesAtSequence(current, later, (lobbyId) => applications.get(lobbyId) === session.applicationId) });
}

/** The application of each lobby: the lobby's row, or for a lobby deleted since `seq` its Lobby Delete. */
async function applicationsOf(db: Db, lobbyIds: readonly string[], seq: number): Promise<Map<string, string>> {
  if (lobbyIds.length === 0) return new Map();
  const rows = await db.lobby.findMany({ where: { id: { in: [...lobbyIds] } }, select: { id: true, applicationId: true } });
  const applications = new Map(rows.map((row) => [row.id, row.applicationId]));
  const gone = lobbyIds.filter((id) => !applications.has(id));
  if (gone.length > 0) {
    const deletes = await db.event.findMany({
      where: { seq: { gt: seq }, guildId: null, type: LobbyEvents.Delete, OR: gone.map((id) => ({ data: { contains: `"id":"${id}"` } })) },
      select: { data: true },
    });
    for (const row of deletes) {
      const data = JSON.parse(row.data) as { id: string; application_id: string };
      applications.set(data.id, data.application_id);
    }
  }
  return applications;
}
