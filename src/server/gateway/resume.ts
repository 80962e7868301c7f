// RESUME (op 6): which session a client takes back, from which point of the outbox, and what
// its replay may show. A session replays only what it would have heard live after its own
// READY (DESIGN.md, "Gateway"):
// - its client's `s` is mapped back to the outbox through the map its last connection left
//   (session-sequence.ts), so a replay never starts before the session's start;
// - the replay routes to the session as it was at that point: its intents (privileged ones
//   checked again now), and the guilds it held then, joins and leaves applied in order as
//   they come;
// - facts are read now (routing uses current permissions), and of a guild the bot has left
//   since, only its leaving is shown.
// A session further behind than a replay may read, or whose point is not known (its instance
// stopped without ending it), is answered op 9: its client identifies anew.
import { GatewayCloseCodes, GatewayDispatchEvents } from "discord-api-types/v10";
import type { Db } from "~/server/db/client.ts";
import type { StoredEvent } from "~/server/events/event-map.ts";
import { outboxHead, replayAfter } from "~/server/events/outbox-read.ts";
import { changePresence } from "~/server/presences/presence.service.ts";
import { GatewayCloseError } from "./close-codes.ts";
import type { Dispatch, GatewaySessionView } from "./gateway-types.ts";
import type { HandshakeDeps } from "./handshake-deps.ts";
import { botOf, disallowedIntent } from "./handshake.ts";
import { isPlayerToken, playerOf, resumedPlayerView } from "./player-session.ts";
import { resumePointOf, type ResumePoint, type SequenceMap } from "./session-sequence.ts";
import { claimSession, findResumableSession, forgetSession, sessionView, type ResumableSession, type StoredSession } from "./session-store.ts";

/** A connection of this instance that holds a session: it ends, and says where its client was. */
type SessionHolder = { handOver(): Promise<SequenceMap> };

/** What RESUME needs from the gateway. */
export type ResumeDeps = HandshakeDeps & {
  /** Outbox events a RESUME may read past its client's point. */
  maxReplayEvents: number;
  /** How long a RESUME waits for another instance to hand the session over. */
  resumeHandoverMs: number;
  /** The connection of this instance holding the session, if one does. */
  holderOf(sessionId: string): SessionHolder | null;
};

/** A RESUME taken: the session as it was at `point`, the token it came with. */
export type Resumed = { view: GatewaySessionView; tokenId: string; point: ResumePoint };

/** How often a RESUME looks again whether another instance has handed the session over. */
const HANDOVER_POLL_MS = 25;

/** Who a RESUME's token speaks for: a bot, or a game client's player ("Bearer <access token>"). */
async function principalOf(db: Db, token: string): Promise<{ kind: StoredSession["kind"]; applicationId: string; userId: string; tokenId: string }> {
  if (isPlayerToken(token)) return { kind: "user", ...(await playerOf(db, token)) };
  const bot = await botOf(db, token);
  return { kind: "bot", applicationId: bot.applicationId, userId: bot.botUserId, tokenId: bot.tokenId };
}

/** A session refused for good (4007, 4014, or op 9 for a point that cannot be replayed): its row and presence go. */
async function endSession(db: Db, session: StoredSession): Promise<void> {
  await changePresence(db, session.botUserId, (tx) => forgetSession(tx, session.id));
}

/**
 * The session's map as its last connection left it: handed over by a connection of this
 * instance, stored by one that ended, or, while another instance's connection still holds the
 * session, stored once that one ends. "held" when it is still held past the wait (that
 * instance stopped, or its connection looks alive there).
 */
async function takeMap(deps: ResumeDeps, found: ResumableSession, id: string): Promise<{ map: SequenceMap | null; closedAt: Date | null } | "held"> {
  const holder = deps.holderOf(id);
  if (holder) return { map: await holder.handOver(), closedAt: found.closedAt };
  const deadline = performance.now() + deps.resumeHandoverMs;
  let current: ResumableSession | null = found;
  while (current?.closedAt === null) {
    if (performance.now() >= deadline) return "held";
    await new Promise((resolve) => setTimeout(resolve, HANDOVER_POLL_MS));
    current = await findResumableSession(deps.db, id, deps.now(), deps.resumableMs);
  }
  return current ? { map: current.map, closedAt: current.closedAt } : { map: null, closedAt: null };
}

/**
 * The session a RESUME names, taken over from where its client was, or null for op 9: unknown,
 * expired, another bot's (or player's), held by a connection elsewhere past the wait, or from a
 * point that is not known, no longer stored, or further back than a replay may read. Closes
 * with 4007 for an `s` past what the session was sent, and with 4014 when it asked for a
 * privileged intent its application no longer holds; both end the session.
 */
export async function resumeSession(deps: ResumeDeps, command: { token: string; session_id: string; seq: number }): Promise<Resumed | null> {
  const { db } = deps;
  const principal = await principalOf(db, command.token);
  const found = await findResumableSession(db, command.session_id, deps.now(), deps.resumableMs);
  const session = found?.session;
  if (!found || session?.botUserId !== principal.userId || session.kind !== principal.kind || session.applicationId !== principal.applicationId) return null;
  const disallowed = session.kind === "bot" ? await disallowedIntent(db, session.applicationId, session.intents) : null;
  if (disallowed) {
    await endSession(db, session);
    throw new GatewayCloseError(GatewayCloseCodes.DisallowedIntents, disallowed);
  }
  const taken = await takeMap(deps, found, session.id);
  if (taken === "held") return null;
  const point = taken.map ? resumePointOf(taken.map, command.seq) : "unknown";
  if (point === "never sent") {
    await endSession(db, session);
    throw new GatewayCloseError(GatewayCloseCodes.InvalidSeq, `seq ${command.seq} was never sent`);
  }
  if (point === "unknown" || (await replayAfter(db, point.position)) !== "replayable" || (await outboxHead(db)) - point.position > deps.maxReplayEvents) {
    await endSession(db, session);
    return null;
  }
  let isClaimed = false;
  // The session's presence shows again (it showed offline while the session was closed).
  await changePresence(db, session.botUserId, async (tx) => {
    isClaimed = await claimSession(tx, session.id, taken.closedAt, deps.now());
  });
  if (!isClaimed) return null;
  const view = session.kind === "user" ? await resumedPlayerView(db, session, point.position) : sessionView(session, { guildIds: point.guildIds });
  return { view, tokenId: principal.tokenId, point };
}

/**
 * What of the replay a resumed session is shown, given the guilds its bot is in now (read
 * after the replay's last event was stored): everything of those, and of a guild left since
 * only its GUILD_DELETE, if the session held it at its point.
 */
export async function replayShown(deps: ResumeDeps, resumed: Resumed): Promise<(event: StoredEvent, dispatches: Dispatch[]) => Dispatch[]> {
  if (resumed.view.player) return (_event, dispatches) => dispatches;
  const current = new Set(await deps.router.guildsOf(resumed.view));
  const held = new Set(resumed.point.guildIds);
  return (event, dispatches) => {
    if (event.guildId === null || current.has(event.guildId)) return dispatches;
    return held.has(event.guildId) ? dispatches.filter((dispatch) => dispatch.t === GatewayDispatchEvents.GuildDelete) : [];
  };
}
