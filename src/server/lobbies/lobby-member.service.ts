import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { applicationOf, readLobby, touchLobby } from "./lobby-access.ts";
import { removeMembers, upsertMembers } from "./lobby-members.ts";
import { countUsers, readLobbyMembers } from "./lobby-queries.ts";
import type { LobbyMemberObject, TLobbyBulkMembersBody, TLobbyMemberBody } from "./lobby.schema.ts";

/** PUT /lobbies/{lobby.id}/members/{user.id} (Bot): adds the user, or updates the fields given. */
export async function putLobbyMember(ctx: ServiceContext, input: { lobbyId: string; userId: string; body: TLobbyMemberBody }): Promise<LobbyMemberObject> {
  const applicationId = applicationOf(ctx.actor);
  return runChange(ctx, async (change) => {
    const lobby = await touchLobby(change.sql, applicationId, input.lobbyId);
    const [member] = await upsertMembers(change, lobby, [{ id: input.userId, ...input.body }], "strict");
    return member!;
  });
}

/**
 * POST /lobbies/{lobby.id}/members/bulk (Bot): 1-25 upserts and removals in one change. An
 * unknown user fails all of it (10013); users who may not join, or are at their lobby cap,
 * are dropped. Answers the upserted members only.
 */
export async function bulkLobbyMembers(ctx: ServiceContext, input: { lobbyId: string; body: TLobbyBulkMembersBody }): Promise<LobbyMemberObject[]> {
  const applicationId = applicationOf(ctx.actor);
  return runChange(ctx, async (change) => {
    const lobby = await touchLobby(change.sql, applicationId, input.lobbyId);
    // Every user named must exist, removals included, before anything changes.
    const named = [...new Set(input.body.map((item) => item.id))];
    if ((await countUsers(change.sql, named)) !== named.length) throw new ApiError("UNKNOWN_USER");
    await removeMembers(
      change,
      lobby.id,
      input.body.filter((item) => item.remove_member).map((item) => item.id),
    );
    return upsertMembers(
      change,
      lobby,
      input.body.filter((item) => !item.remove_member),
      "drop",
    );
  });
}

/**
 * DELETE /lobbies/{lobby.id}/members/{user.id} (Bot) and .../members/@me (Bearer): safe when
 * the user is not a member; 10031 when the lobby is not there. Only a removal counts as activity.
 */
export async function removeLobbyMember(ctx: ServiceContext, input: { lobbyId: string; userId: string }): Promise<void> {
  const applicationId = applicationOf(ctx.actor);
  await readLobby(ctx.db, applicationId, input.lobbyId);
  await runChange(ctx, async (change) => {
    if ((await readLobbyMembers(change.sql, input.lobbyId, [input.userId])).length === 0) return;
    await touchLobby(change.sql, applicationId, input.lobbyId);
    await removeMembers(change, input.lobbyId, [input.userId]);
  });
}
