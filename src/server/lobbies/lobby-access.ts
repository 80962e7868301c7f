import type { Lobby } from "~/generated/prisma/client.ts";
import type { Actor } from "~/server/auth/actor.ts";
import type { ChannelObject } from "~/server/channels/channel.dto.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { toLobbyObject } from "./lobby.dto.ts";
import type { LobbyObject } from "./lobby.schema.ts";

// A lobby belongs to one application: every read names it, so another application's lobby
// is as unknown as one that never was. A lobby idle past `expiresAt` is gone on read even
// before the sweep deletes it (lobby-sweep.ts).

/** The application a token acts for; a token of none has no lobbies (50001). */
export function applicationOf(actor: Actor): string {
  if (!actor.applicationId) throw new ApiError("MISSING_ACCESS");
  return actor.applicationId;
}

/** When a lobby idle from `now` shuts down. */
export function idleDeadline(now: Date, idleTimeoutSeconds: number): Date {
  return new Date(now.getTime() + idleTimeoutSeconds * 1000);
}

/** The application's live lobby; 10031 Unknown Lobby otherwise. */
export async function findLobby(db: Db | Tx, applicationId: string, lobbyId: string, now = new Date()): Promise<Lobby> {
  const lobby = await db.lobby.findFirst({ where: { id: lobbyId, applicationId, expiresAt: { gt: now } } });
  if (!lobby) throw new ApiError("UNKNOWN_LOBBY");
  return lobby;
}

/**
 * Counts a change as the lobby's activity, in the change's transaction: the idle clock
 * starts again (with a new timeout when one is given). The conditional UPDATE both checks
 * the lobby is still live and, on PostgreSQL, holds its row until commit, so changes to one
 * lobby (member caps) take turns and a sweep cannot delete it under them.
 */
export async function touchLobby(tx: Tx, applicationId: string, lobbyId: string, options: { idleTimeoutSeconds?: number; now?: Date } = {}): Promise<Lobby> {
  const now = options.now ?? new Date();
  const lobby = await findLobby(tx, applicationId, lobbyId, now);
  const idleTimeoutSeconds = options.idleTimeoutSeconds ?? lobby.idleTimeoutSeconds;
  const expiresAt = idleDeadline(now, idleTimeoutSeconds);
  const touched = await tx.lobby.updateMany({
    where: { id: lobbyId, expiresAt: { gt: now } },
    data: { lastActivityAt: now, expiresAt, idleTimeoutSeconds },
  });
  if (touched.count === 0) throw new ApiError("UNKNOWN_LOBBY");
  return { ...lobby, lastActivityAt: now, expiresAt, idleTimeoutSeconds };
}

/** The linked channel as the lobby object shows it; null when unlinked or the channel is gone. */
export async function linkedChannelObject(db: Db, channelId: string | null): Promise<ChannelObject | null> {
  if (!channelId) return null;
  const cache = stateCache(db);
  const guildId = await cache.guildIdOfChannel(channelId);
  const state = guildId ? await cache.guild(guildId) : null;
  return (await state?.channels())?.objects.get(channelId) ?? null;
}

/** A lobby with every member, as the API answers it. */
export async function presentLobby(
  db: Db | Tx,
  lobby: Pick<Lobby, "id" | "applicationId" | "metadata" | "flags" | "linkedChannelId">,
  channelDb: Db,
): Promise<LobbyObject> {
  const members = await db.lobbyMember.findMany({ where: { lobbyId: lobby.id }, orderBy: [{ joinedAt: "asc" }, { userId: "asc" }] });
  return toLobbyObject({ ...lobby, members }, await linkedChannelObject(channelDb, lobby.linkedChannelId));
}
