// Routing a committed lobby event to game clients' sessions: the pure decision
// (lobby-route-decision.ts) fed with the lobby's application when a player joins.
import type { Db } from "~/server/db/client.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import type { Dispatch, GatewaySessionView } from "./gateway-types.ts";
import { hearsLobbyEvent, needsLobbyApplication, type RoutedLobbyEvent } from "./lobby-route-decision.ts";

/**
 * The dispatch a lobby event becomes: its stored payload (message metadata included), one
 * object for every session that hears it. Players join and leave lobbies here, in the
 * order the events are routed.
 */
export async function routeLobbyEvent(db: Db, event: RoutedLobbyEvent, data: unknown, sessions: readonly GatewaySessionView[]): Promise<Dispatch[]> {
  const players = sessions.filter((session) => session.player);
  if (players.length === 0) return [];
  const lobbyApplicationId = players.some((session) => needsLobbyApplication(event, session))
    ? ((await stateCache(db).lobby(event.lobbyId))?.row.applicationId ?? null)
    : null;
  const receivers: GatewaySessionView[] = [];
  for (const session of players) {
    const delivery = hearsLobbyEvent(event, session, { lobbyApplicationId });
    if (delivery.membership === "join") session.player?.lobbyIds.add(event.lobbyId);
    if (delivery.membership === "leave") session.player?.lobbyIds.delete(event.lobbyId);
    if (delivery.dispatch) receivers.push(session);
  }
  return receivers.length > 0 ? [{ sessions: receivers, t: event.type, d: data }] : [];
}
