// Who of the game clients' sessions receives a lobby event: a pure function of the event, the
// session and what reads found, beside route-decision.ts (which decides for bots).
import type { StoredEvent } from "~/server/events/event-map.ts";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import type { GatewaySessionView } from "./gateway-types.ts";

type LobbyEventType = (typeof LobbyEvents)[keyof typeof LobbyEvents];

const LOBBY_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(LobbyEvents));

/** A committed lobby event as routing sees it. */
export type RoutedLobbyEvent = {
  type: LobbyEventType;
  lobbyId: string;
  /** The application the payload names (lobby create, update, delete and messages); null for member events. */
  applicationId: string | null;
  /** The user a member event is about. */
  memberId: string | null;
  /** Lobby create and update: every member after the change. */
  memberIds: readonly string[] | null;
};

/** The event as lobby routing sees it; null for every event that is not a lobby's. */
export function toRoutedLobbyEvent(event: StoredEvent): RoutedLobbyEvent | null {
  if (!LOBBY_EVENT_TYPES.has(event.type)) return null;
  switch (event.type) {
    case LobbyEvents.Create:
    case LobbyEvents.Update:
      return {
        type: event.type,
        lobbyId: event.data.id,
        applicationId: event.data.application_id,
        memberId: null,
        memberIds: event.data.members.map((member) => member.id),
      };
    case LobbyEvents.Delete:
      return { type: event.type, lobbyId: event.data.id, applicationId: event.data.application_id, memberId: null, memberIds: null };
    case LobbyEvents.MemberAdd:
    case LobbyEvents.MemberUpdate:
    case LobbyEvents.MemberRemove:
      return { type: event.type, lobbyId: event.data.lobby_id, applicationId: null, memberId: event.data.member.id, memberIds: null };
    case LobbyEvents.MessageCreate:
    case LobbyEvents.MessageUpdate:
      return { type: event.type, lobbyId: event.data.lobby_id, applicationId: event.data.application_id, memberId: null, memberIds: null };
    case LobbyEvents.MessageDelete:
      return { type: event.type, lobbyId: event.data.lobby_id, applicationId: null, memberId: null, memberIds: null };
    default:
      return null;
  }
}

/**
 * What reads found: the application of the lobby a Lobby Member Add names the session's
 * player in (the payload does not say); null when the lobby is gone.
 */
export type LobbyRouteFacts = { lobbyApplicationId: string | null };

export type LobbyDelivery = {
  /** Whether the event is sent to the session. */
  dispatch: boolean;
  /** The player joins the lobby (hears its events from now on) or leaves it (hears nothing more of it). */
  membership: "join" | "leave" | null;
};

const NONE: LobbyDelivery = { dispatch: false, membership: null };
const SENT: LobbyDelivery = { dispatch: true, membership: null };

type Session = Pick<GatewaySessionView, "applicationId" | "player">;

/**
 * Whether the player of a game client's session is told of a lobby event. A session hears
 * the lobbies of its application its player is a member of at the event: the player's own
 * Lobby Member Add (or a lobby created or updated with them among its members) starts
 * that; their own Lobby Member Remove or the Lobby Delete is the last event they hear of
 * it. Bot sessions hear no lobby event.
 */
export function hearsLobbyEvent(event: RoutedLobbyEvent, session: Session, facts: LobbyRouteFacts): LobbyDelivery {
  const { player } = session;
  if (!player) return NONE;
  const isIn = player.lobbyIds.has(event.lobbyId);
  const isOwnApplication = (event.applicationId ?? facts.lobbyApplicationId) === session.applicationId;
  switch (event.type) {
    case LobbyEvents.Create:
    case LobbyEvents.Update: {
      // These carry every member: the list after the change decides.
      const isMember = isOwnApplication && event.memberIds!.includes(player.userId);
      if (isMember) return { dispatch: true, membership: isIn ? null : "join" };
      return isIn ? { dispatch: false, membership: "leave" } : NONE;
    }
    case LobbyEvents.Delete:
      return isIn ? { dispatch: true, membership: "leave" } : NONE;
    case LobbyEvents.MemberAdd:
      if (event.memberId === player.userId && !isIn) return isOwnApplication ? { dispatch: true, membership: "join" } : NONE;
      return isIn ? SENT : NONE;
    case LobbyEvents.MemberRemove:
      if (!isIn) return NONE;
      return event.memberId === player.userId ? { dispatch: true, membership: "leave" } : SENT;
    default:
      return isIn ? SENT : NONE;
  }
}

/** Whether routing needs the lobby's application to decide for this session (its player joining by Lobby Member Add). */
export function needsLobbyApplication(event: RoutedLobbyEvent, session: Session): boolean {
  const { player } = session;
  return !!player && event.type === LobbyEvents.MemberAdd && event.memberId === player.userId && !player.lobbyIds.has(event.lobbyId);
}

/** One of the player's own membership changes after a RESUME's sequence, in outbox order. */
export type LaterMembership = { lobbyId: string; change: "add" | "remove" };

/**
 * The player's lobbies as they were at a RESUME's sequence, from those they are in now and
 * their own membership changes since (oldest first): a lobby first joined since was not
 * theirs yet, one first left since was. `isOwnApplication` says whether a lobby left since
 * belongs to the session's application.
 */
export function lobbiesAtSequence(current: Iterable<string>, later: readonly LaterMembership[], isOwnApplication: (lobbyId: string) => boolean): Set<string> {
  const lobbies = new Set(current);
  const seen = new Set<string>();
  for (const { lobbyId, change } of later) {
    if (seen.has(lobbyId)) continue;
    seen.add(lobbyId);
    if (change === "add") lobbies.delete(lobbyId);
    else if (isOwnApplication(lobbyId)) lobbies.add(lobbyId);
  }
  return lobbies;
}
