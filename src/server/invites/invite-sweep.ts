import { GatewayDispatchEvents } from "discord-api-types/v10";
import type { Db } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { repeatWithJitter, type Stop } from "~/server/repeat.ts";

const BATCH = 200;
const INTERVAL_MS = 60_000;

/**
 * Deletes invites past their max_age, firing Invite Delete for each. Reads already treat
 * them as gone; this keeps the table small and tells listeners. Each delete is
 * conditional, so when several instances sweep at once every invite is deleted, and
 * announced, once. Returns how many this call deleted.
 */
export async function sweepExpiredInvites(db: Db, now: Date = new Date()): Promise<number> {
  let deleted = 0;
  for (;;) {
    const expired = await db.invite.findMany({ where: { expiresAt: { lte: now } }, select: { code: true }, orderBy: { expiresAt: "asc" }, take: BATCH });
    if (expired.length === 0) return deleted;
    deleted += await runChange({ db, actor: null }, async ({ tx, emit }) => {
      let count = 0;
      for (const { code } of expired) {
        const row = await tx.invite.findUnique({ where: { code }, select: { guildId: true, channelId: true } });
        const gone = row ? await tx.invite.deleteMany({ where: { code, expiresAt: { lte: now } } }) : { count: 0 };
        if (!row || gone.count === 0) continue;
        count += 1;
        await emit(GatewayDispatchEvents.InviteDelete, { channel_id: row.channelId, guild_id: row.guildId, code });
      }
      return count;
    });
    if (expired.length < BATCH) return deleted;
  }
}

/** Sweeps expired invites about once a minute, at a random point of it so instances spread out. */
export function startInviteSweep(db: Db): Stop {
  return repeatWithJitter(() => sweepExpiredInvites(db), {
    intervalMs: INTERVAL_MS,
    firstDelayMs: INTERVAL_MS * Math.random(),
    label: "[invites] sweeping expired invites",
  });
}
