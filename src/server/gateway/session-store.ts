import type { Db, Tx } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { changePresence } from "~/server/presences/presence.service.ts";
import type { GatewaySessionView } from "./gateway-types.ts";
import { parseSequenceMap, type SequenceMap } from "./session-sequence.ts";

/** A session as stored: enough to route its events again on any instance after a RESUME. */
export type StoredSession = {
  id: string;
  applicationId: string;
  /** "user" for a game client's session, whose player is `botUserId`. */
  kind: "bot" | "user";
  botUserId: string;
  intents: number;
  shardId: number;
  shardCount: number;
  largeThreshold: number;
  messageContent: boolean;
  channelObfuscation: boolean;
};

const BATCH = 500;

/**
 * A session the test twin holds for a person it acts as (twin/twin-held-session.ts): no
 * connection marks it seen, so the sweep leaves it alone and nothing resumes it. It carries the
 * person's presence and voice until the twin ends it.
 */
export const HELD_SESSION_KIND = "twin";

/** Stores a new session at READY. */
export async function storeSession(db: Db, session: StoredSession, now: Date): Promise<void> {
  await runChange({ db, actor: null }, ({ tx }) => tx.gatewaySession.create({ data: { ...session, createdAt: now, lastSeenAt: now } }));
}

/** A session a RESUME may take, with where its last connection left its numbering. */
export type ResumableSession = {
  session: StoredSession;
  /** When its connection ended; null while a connection (on some instance) holds it. */
  closedAt: Date | null;
  /** Stored as its connection ended; null while one holds it, or when its instance stopped without ending it. */
  map: SequenceMap | null;
};

/**
 * The session if it may still be resumed: connected (on any instance, seen within the window)
 * or closed less than `resumableMs` ago. Expiry is checked here, so resume does not depend on
 * when the sweep last ran.
 */
export async function findResumableSession(db: Db, id: string, now: Date, resumableMs: number): Promise<ResumableSession | null> {
  const row = await db.gatewaySession.findUnique({ where: { id } });
  if (!row || row.kind === HELD_SESSION_KIND) return null;
  const lastAlive = row.closedAt ?? row.lastSeenAt;
  if (lastAlive.getTime() < now.getTime() - resumableMs) return null;
  const { createdAt: _createdAt, lastSeenAt: _lastSeenAt, closedAt, sequenceMap, kind, ...session } = row;
  return { session: { ...session, kind: kind === "user" ? "user" : "bot" }, closedAt, map: parseSequenceMap(sequenceMap) };
}

/** The session's connection ended, in the caller's change: resumable from now for the window, from what `map` says. */
export async function markSessionClosed(tx: Tx, id: string, now: Date, map: SequenceMap): Promise<void> {
  await tx.gatewaySession.updateMany({ where: { id }, data: { closedAt: now, sequenceMap: JSON.stringify(map) } });
}

/**
 * A RESUME takes the session as it found it (closed at `closedAt`, or held by a connection of
 * this instance when null), in the caller's change: open again, its map spent, so that an
 * instance that stops without ending it leaves no map. False when another RESUME took it first.
 */
export async function claimSession(tx: Tx, id: string, closedAt: Date | null, now: Date): Promise<boolean> {
  const { count } = await tx.gatewaySession.updateMany({ where: { id, closedAt }, data: { closedAt: null, lastSeenAt: now, sequenceMap: null } });
  return count === 1;
}

/** A session that can never be resumed (a non-resumable close code), in the caller's change. */
export async function forgetSession(tx: Tx, id: string): Promise<void> {
  await tx.gatewaySession.deleteMany({ where: { id } });
}

/** Marks this instance's connected sessions as seen (and open, should a stale connection have closed one), a few hundred per statement. */
export async function touchSessions(db: Db, ids: readonly string[], now: Date): Promise<void> {
  for (let start = 0; start < ids.length; start += BATCH) {
    const batch = ids.slice(start, start + BATCH);
    await runChange({ db, actor: null }, ({ tx }) => tx.gatewaySession.updateMany({ where: { id: { in: batch } }, data: { lastSeenAt: now, closedAt: null } }));
  }
}

/**
 * Deletes sessions that can no longer be resumed: closed, or unseen (their instance stopped),
 * longer ago than the window. Idempotent conditional deletes, safe on several instances at
 * once. A closed session's user was shown offline when it closed; an unseen session's user is
 * shown offline now if it was their last, by the instance whose delete removed it.
 */
export async function sweepSessions(db: Db, now: Date, resumableMs: number): Promise<number> {
  const cutoff = new Date(now.getTime() - resumableMs);
  const { count: closed } = await runChange({ db, actor: null }, ({ tx }) => tx.gatewaySession.deleteMany({ where: { closedAt: { lt: cutoff } } }));
  const unseenWhere = { closedAt: null, lastSeenAt: { lt: cutoff }, kind: { not: HELD_SESSION_KIND } };
  const unseen = await db.gatewaySession.findMany({ where: unseenWhere, select: { id: true, botUserId: true } });
  let swept = 0;
  for (const session of unseen) {
    await changePresence(db, session.botUserId, async (tx) => {
      swept += (await tx.gatewaySession.deleteMany({ where: { id: session.id, ...unseenWhere } })).count;
    });
  }
  return closed + swept;
}

/** What routing knows of a stored session: a bot's guilds on its shard, or a player's lobbies (and no guilds). */
export function sessionView(session: StoredSession, of: { guildIds: Iterable<string> } | { lobbyIds: Iterable<string> }): GatewaySessionView {
  return {
    sessionId: session.id,
    applicationId: session.applicationId,
    botUserId: session.botUserId,
    intents: session.intents,
    shard: [session.shardId, session.shardCount],
    messageContent: session.messageContent,
    channelObfuscation: session.channelObfuscation,
    largeThreshold: session.largeThreshold,
    guildIds: new Set("guildIds" in of ? of.guildIds : []),
    ...("lobbyIds" in of && { player: { userId: session.botUserId, lobbyIds: new Set(of.lobbyIds) } }),
  };
}
