import type { Lobby } from "~/generated/prisma/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import type { Change } from "~/server/events/change.ts";
import { storeMetadata, toLobbyMemberObject } from "./lobby.dto.ts";
import {
  countLobbiesOf,
  countLobbyMembers,
  deleteLobbyMembers,
  insertLobbyMember,
  lockUsers,
  readLobbyMembers,
  updateLobbyMember,
  type LobbyMemberFields,
} from "./lobby-queries.ts";
import { LOBBIES_PER_USER_MAX, LOBBY_MEMBERS_MAX, LobbyEvents, type LobbyMemberObject, type TLobbyMemberInput } from "./lobby.schema.ts";

/**
 * How a request treats members it cannot add. "strict" (one named member: PUT member, join
 * by secret) refuses the request; "drop" (lists: create, modify, bulk) leaves them out as
 * the platform's bulk rule says, and the answer lists only those upserted.
 */
export type UpsertMode = "strict" | "drop";

/**
 * Adds or updates members of a lobby touched in this change (touchLobby holds its row, so
 * the lobby's count cannot race). Given metadata or flags overwrite, omitted ones stay.
 * Unknown users fail the whole change (10013). Bots and system users cannot be members
 * (the permission check); a user already in LOBBIES_PER_USER_MAX lobbies of the
 * application, or a full lobby, takes no one new.
 */
export async function upsertMembers(change: Change, lobby: Lobby, items: readonly TLobbyMemberInput[], mode: UpsertMode): Promise<LobbyMemberObject[]> {
  if (items.length === 0) return [];
  const { sql } = change;
  const ids = [...new Set(items.map((item) => item.id))].sort();
  const users = await lockUsers(sql, ids);
  if (users.length !== ids.length) throw new ApiError("UNKNOWN_USER");
  const canJoin = new Set(users.filter((user) => !user.bot && !user.system).map((user) => user.id));
  const existing = new Map((await readLobbyMembers(sql, lobby.id, ids)).map((row) => [row.userId, row]));
  const joining = ids.filter((id) => !existing.has(id));
  // Counts matter only to those joining: an update of members alone reads none.
  const lobbiesOf = joining.length ? await countLobbiesOf(sql, lobby.applicationId, joining) : new Map<string, number>();
  let size = joining.length ? await countLobbyMembers(sql, lobby.id) : 0;

  const upserted: LobbyMemberObject[] = [];
  for (const item of items) {
    const fields: LobbyMemberFields = {
      ...(item.metadata !== undefined && { metadata: storeMetadata(item.metadata) }),
      ...(item.flags !== undefined && { flags: item.flags ?? 0 }),
    };
    const current = existing.get(item.id);
    if (current) {
      const row = await updateLobbyMember(sql, lobby.id, item.id, fields);
      existing.set(item.id, row);
      const member = toLobbyMemberObject(row);
      await change.emit(LobbyEvents.MemberUpdate, { lobby_id: lobby.id, member });
      upserted.push(member);
      continue;
    }
    const refusal = !canJoin.has(item.id)
      ? new ApiError("MISSING_PERMISSIONS")
      : (lobbiesOf.get(item.id) ?? 0) >= LOBBIES_PER_USER_MAX
        ? invalidField(["id"], "LOBBY_USER_LIMIT", `This user is already in ${LOBBIES_PER_USER_MAX} lobbies of this application.`)
        : size >= LOBBY_MEMBERS_MAX
          ? invalidField(["id"], "LOBBY_FULL", `A lobby holds at most ${LOBBY_MEMBERS_MAX} members.`)
          : null;
    if (refusal) {
      if (mode === "strict") throw refusal;
      continue;
    }
    const row = await insertLobbyMember(sql, { lobbyId: lobby.id, userId: item.id, applicationId: lobby.applicationId, ...fields });
    existing.set(item.id, row);
    size += 1;
    const member = toLobbyMemberObject(row);
    await change.emit(LobbyEvents.MemberAdd, { lobby_id: lobby.id, member });
    upserted.push(member);
  }
  return upserted;
}

/** Removes members (those who are not members are no change); Lobby Member Remove for each one removed. */
export async function removeMembers(change: Change, lobbyId: string, userIds: readonly string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const rows = await readLobbyMembers(change.sql, lobbyId, userIds);
  if (rows.length === 0) return 0;
  await deleteLobbyMembers(
    change.sql,
    lobbyId,
    rows.map((row) => row.userId),
  );
  for (const row of rows) await change.emit(LobbyEvents.MemberRemove, { lobby_id: lobbyId, member: toLobbyMemberObject(row) });
  return rows.length;
}
