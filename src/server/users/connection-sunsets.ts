import type { Connection } from "~/generated/prisma/client.ts";

/**
 * Connection kinds the platform is retiring from GET /users/@me/connections (spec 9): a
 * connection of such a kind created from `newSince` on is never listed, and those made
 * before (legacy ones) are listed until `legacyUntil`. There is no replacement.
 *
 * Assumptions, as neither spec 9 nor the platform's change log we could find names them:
 * the two game-publisher kinds are Bungie (legacy until 10 July 2026) and Riot Games with
 * League of Legends (legacy until 22 September 2026); both deprecations start on 10 April
 * 2026; each date takes effect at 00:00 UTC.
 */
const CONNECTION_SUNSETS: readonly { types: readonly string[]; newSince: Date; legacyUntil: Date }[] = [
  { types: ["bungie"], newSince: new Date("2026-04-10T00:00:00Z"), legacyUntil: new Date("2026-07-10T00:00:00Z") },
  { types: ["riotgames", "leagueoflegends"], newSince: new Date("2026-04-10T00:00:00Z"), legacyUntil: new Date("2026-09-22T00:00:00Z") },
];

/** Whether GET /users/@me/connections shows this connection at `now`. */
export function isConnectionListed(connection: Pick<Connection, "type" | "createdAt">, now: Date): boolean {
  const sunset = CONNECTION_SUNSETS.find((entry) => entry.types.includes(connection.type));
  if (!sunset) return true;
  if (connection.createdAt >= sunset.newSince) return false;
  return now < sunset.legacyUntil;
}
