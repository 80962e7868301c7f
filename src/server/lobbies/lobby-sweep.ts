import type { Db } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { repeatWithJitter, type Stop } from "~/server/repeat.ts";
import { endLobby } from "./lobby.service.ts";

const BATCH = 200;
const INTERVAL_MS = 30_000;

/**
 * Idle shutdown (spec 3): deletes lobbies idle past their timeout, each with Lobby Delete.
 * Reads already treat them as gone; this frees their rows and secrets and tells members.
 * Each delete is conditional on the lobby still being idle, so with several instances
 * sweeping at once every lobby ends, and is announced, once. Returns how many this call ended.
 */
export async function sweepIdleLobbies(db: Db, now: Date = new Date()): Promise<number> {
  let ended = 0;
  for (;;) {
    const idle = await db.lobby.findMany({
      where: { expiresAt: { lte: now } },
      select: { id: true, applicationId: true },
      orderBy: { expiresAt: "asc" },
      take: BATCH,
    });
    if (idle.length === 0) return ended;
    ended += await runChange({ db, actor: null }, async (change) => {
      let count = 0;
      for (const lobby of idle) if (await endLobby(change, lobby, "idle", now)) count += 1;
      return count;
    });
    if (idle.length < BATCH) return ended;
  }
}

/** Sweeps idle lobbies about twice a minute, at a random point so instances spread out. */
export function startLobbySweep(db: Db): Stop {
  return repeatWithJitter(() => sweepIdleLobbies(db), {
    intervalMs: INTERVAL_MS,
    firstDelayMs: INTERVAL_MS * Math.random(),
    label: "[lobbies] idle shutdown sweep",
  });
}
