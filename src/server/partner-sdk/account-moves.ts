// Moving what a player has in an application's lobbies from one account to another, for
// merging a provisional account into a full one and for unmerging it again.
import { revokeTokensIn } from "~/server/auth/tokens.service.ts";
import type { Change } from "~/server/events/change.ts";
import { toLobbyMemberObject, toLobbyMessageObject } from "~/server/lobbies/lobby.dto.ts";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";

type Move = { applicationId: string; fromUserId: string; toUserId: string };

/**
 * The application's lobby memberships pass to the other account, with their flags and metadata
 * (a lobby both are in keeps the other's). Each lobby's members hear the one leave and the other join.
 */
export async function moveLobbyMemberships(change: Change, move: Move): Promise<string[]> {
  const { tx, emit } = change;
  const rows = await tx.lobbyMember.findMany({ where: { userId: move.fromUserId, applicationId: move.applicationId } });
  for (const row of rows) {
    await tx.lobbyMember.delete({ where: { lobbyId_userId: { lobbyId: row.lobbyId, userId: move.fromUserId } } });
    await emit(LobbyEvents.MemberRemove, { lobby_id: row.lobbyId, member: toLobbyMemberObject(row) });
    const key = { lobbyId_userId: { lobbyId: row.lobbyId, userId: move.toUserId } };
    if (await tx.lobbyMember.findUnique({ where: key })) continue;
    const moved = await tx.lobbyMember.create({ data: { ...row, userId: move.toUserId } });
    await emit(LobbyEvents.MemberAdd, { lobby_id: row.lobbyId, member: toLobbyMemberObject(moved) });
  }
  return rows.map((row) => row.lobbyId);
}

/** The account's messages in the application's lobbies become the other's; members see them updated. */
export async function moveLobbyMessages(change: Change, move: Move): Promise<void> {
  const { tx, emit } = change;
  const where = { authorId: move.fromUserId, lobby: { applicationId: move.applicationId } };
  const ids = (await tx.lobbyMessage.findMany({ where, select: { id: true } })).map((row) => row.id);
  if (ids.length === 0) return;
  await tx.lobbyMessage.updateMany({ where: { id: { in: ids } }, data: { authorId: move.toUserId } });
  const moved = await tx.lobbyMessage.findMany({ where: { id: { in: ids } }, include: { author: true }, orderBy: { id: "asc" } });
  for (const row of moved) await emit(LobbyEvents.MessageUpdate, toLobbyMessageObject(row, move.applicationId));
}

/** Every token of the account stops working on every instance (its rows go with the account or stay revoked). */
export async function revokeAllTokensOf(change: Change, userId: string): Promise<void> {
  await revokeTokensIn(change, { userId });
}
