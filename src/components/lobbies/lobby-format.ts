import { RESTJSONErrorCodes } from "discord-api-types/v10";
import { LobbyMemberFlags } from "~/server/lobbies/lobby.schema.ts";
import type { RouterOutputs } from "~/trpc/react.tsx";

type LobbyList = RouterOutputs["lobby"]["list"];
export type LobbySummary = LobbyList["lobbies"][number];
export type LobbyView = RouterOutputs["lobby"]["get"];
export type LobbyMemberRow = LobbyView["members"][number];
export type LobbyMessage = RouterOutputs["lobby"]["messages"]["messages"][number];
export type LobbyUser = LobbyMemberRow["user"];

/** The platform's error code of a lobby that has ended (or never was). */
export const UNKNOWN_LOBBY_CODE = RESTJSONErrorCodes.UnknownLobby;

/** How often the Lobbies pages read again: lobbies come and go by the minute. */
export const LOBBY_REFRESH_MS = 10_000;

export function lobbiesPath(applicationId: string): string {
  return `/applications/${applicationId}/lobbies`;
}

export function lobbyPath(applicationId: string, lobbyId: string): string {
  return `${lobbiesPath(applicationId)}/${lobbyId}`;
}

export function userName(user: LobbyUser): string {
  return user.globalName ?? user.username;
}

/** Member flags by the names the page shows. */
const MEMBER_FLAGS = [{ flag: LobbyMemberFlags.CanLinkLobby, label: "Can link channel" }] as const;

/** The names of a member's flags; unknown bits by number so nothing set is hidden. */
export function memberFlagLabels(flags: number): string[] {
  const known = MEMBER_FLAGS.filter(({ flag }) => flags & flag).map(({ label }) => label);
  const rest = MEMBER_FLAGS.reduce((left, { flag }) => left & ~flag, flags);
  return rest ? [...known, `Flags ${rest}`] : known;
}

const UNITS = [
  { seconds: 86_400, one: "day", many: "days" },
  { seconds: 3600, one: "h", many: "h" },
  { seconds: 60, one: "min", many: "min" },
  { seconds: 1, one: "s", many: "s" },
] as const;

/** An idle timeout in its two largest units: "45 s", "5 min", "1 h 30 min", "7 days". */
export function formatDuration(totalSeconds: number): string {
  const parts: string[] = [];
  let left = totalSeconds;
  for (const unit of UNITS) {
    const count = Math.floor(left / unit.seconds);
    if (count === 0) continue;
    parts.push(`${count} ${count === 1 ? unit.one : unit.many}`);
    left -= count * unit.seconds;
    if (parts.length === 2) break;
  }
  return parts.join(" ") || "0 s";
}
