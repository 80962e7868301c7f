// A platform ban on an account (an operator's): while it stands the account's tokens do not
// authenticate, and a provisional account cannot be merged into a full one (530017).
import type { ChangeContext } from "~/server/events/change.ts";
import { runChange } from "~/server/events/change.ts";
import { ApiError } from "~/server/errors.ts";
import { InternalEvents } from "~/server/events/event-map.ts";

/** Bans an account until a time, or lifts its ban (null); answers when the ban now ends. */
export async function setUserBan(ctx: ChangeContext, userId: string, until: Date | null): Promise<{ bannedUntil: Date | null }> {
  return runChange(ctx, async ({ tx, emit }) => {
    const { count } = await tx.user.updateMany({ where: { id: userId }, data: { bannedUntil: until } });
    if (count === 0) throw new ApiError("UNKNOWN_USER");
    // Every instance re-reads the account's tokens with the ban (and closes their gateway sessions).
    const tokens = await tx.token.findMany({ where: { userId }, select: { id: true } });
    await emit(InternalEvents.TokensRevoked, { token_ids: tokens.map((token) => token.id) });
    return { bannedUntil: until };
  });
}
