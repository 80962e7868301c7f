import { LRUCache } from "lru-cache";
import { Prisma, type Lobby } from "~/generated/prisma/client.ts";
import type { Actor } from "~/server/auth/actor.ts";
import type { ChannelObject } from "~/server/channels/channel.dto.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import type { Statements } from "~/server/db/statements.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { CACHES } from "~/server/runtime/cache-registry.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import type { LobbyRecord } from "~/server/state/state-cache-store.ts";
import { CLOCK_TTL } from "~/server/twin/twin-clock.ts";
import { toLobbyObject } from "./lobby.dto.ts";
import { moveLobbyClock, readLiveLobby } from "./lobby-queries.ts";
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

/** The application's live lobby (the dashboard's read); 10031 Unknown Lobby otherwise. */
export async function findLobby(db: Db, applicationId: string, lobbyId: string, now = new Date()): Promise<Lobby> {
  const lobby = await db.lobby.findFirst({ where: { id: lobbyId, applicationId, expiresAt: { gt: now } } });
  if (!lobby) throw new ApiError("UNKNOWN_LOBBY");
  return lobby;
}

/**
 * The application's live lobby with its members, from the state cache; 10031 otherwise. A
 * lobby seen idle is read again first: activity moves its clock without an event, so
 * the cached deadline is only ever earlier than the real one.
 */
export async function readLobby(db: Db, applicationId: string, lobbyId: string, now = new Date()): Promise<LobbyRecord> {
  const cache = stateCache(db);
  let record = await cache.lobby(lobbyId);
  if (record && record.row.expiresAt <= now) {
    cache.forgetLobby(lobbyId);
    record = await cache.lobby(lobbyId);
  }
  if (record?.row.applicationId !== applicationId || record.row.expiresAt <= now) throw new ApiError("UNKNOWN_LOBBY");
  return record;
}

// A game's reads of one lobby move its idle clock at most once per TTL (of a test twin's clock
// too: a read after an advance moves the idle clock from the new time).
const readActivity = new LRUCache<string, true>({ max: CACHES.lobbyReadActivity.max, ttl: CACHES.lobbyReadActivity.ttlMs, ...CLOCK_TTL });

/**
 * A game's read of a lobby (REST, not the dashboard) is lobby activity too (spec 3), noted
 * in the background at most once a second per lobby, so reads stay cheap. Only ever moves
 * the clock later, and never brings back a lobby that has gone idle.
 */
export function noteReadActivity(db: Db, record: LobbyRecord, now = new Date()): void {
  const { id, idleTimeoutSeconds } = record.row;
  if (readActivity.has(id)) return;
  readActivity.set(id, true);
  const expiresAt = idleDeadline(now, idleTimeoutSeconds);
  runChange({ db, actor: null }, ({ sql }) =>
    sql.run(Prisma.sql`UPDATE "Lobby" SET "lastActivityAt" = ${now}, "expiresAt" = ${expiresAt}
      WHERE "id" = ${id} AND "idleTimeoutSeconds" = ${idleTimeoutSeconds} AND "expiresAt" > ${now} AND "expiresAt" < ${expiresAt}`),
  ).catch((error: unknown) => {
    readActivity.delete(id);
    console.error("[lobbies] could not note a read as activity", error);
  });
}

/** Whether a user is a member of a lobby read with readLobby. */
export function isLobbyMember(record: LobbyRecord, userId: string): boolean {
  return record.members.some((member) => member.userId === userId);
}

/**
 * Counts a change as the lobby's activity, in the change's transaction: the idle clock
 * starts again (with a new timeout when one is given). The conditional UPDATE both checks
 * the lobby is still live and, on PostgreSQL, holds its row until commit, so changes to one
 * lobby (member caps) take turns and a sweep cannot delete it under them.
 */
export async function touchLobby(
  sql: Statements,
  applicationId: string,
  lobbyId: string,
  options: { idleTimeoutSeconds?: number; now?: Date; known?: Readonly<Lobby> } = {},
): Promise<Lobby> {
  const now = options.now ?? new Date();
  // A lobby already read (readLobby) needs no second read: the conditional UPDATE checks it is still there.
  const lobby = options.known ?? (await readLiveLobby(sql, applicationId, lobbyId, now));
  if (!lobby) throw new ApiError("UNKNOWN_LOBBY");
  const idleTimeoutSeconds = options.idleTimeoutSeconds ?? lobby.idleTimeoutSeconds;
  const expiresAt = idleDeadline(now, idleTimeoutSeconds);
  if (!(await moveLobbyClock(sql, { id: lobbyId, applicationId, now, expiresAt, idleTimeoutSeconds }))) throw new ApiError("UNKNOWN_LOBBY");
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

/** A lobby read with readLobby, as the API answers it. */
export async function presentLobbyRecord(db: Db, record: LobbyRecord): Promise<LobbyObject> {
  return toLobbyObject({ ...record.row, members: record.members }, await linkedChannelObject(db, record.row.linkedChannelId));
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
