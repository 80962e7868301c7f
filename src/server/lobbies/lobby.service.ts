import type { Lobby } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { isUniqueViolation } from "~/server/db/prisma-errors.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { storeMetadata } from "./lobby.dto.ts";
import { applicationOf, idleDeadline, noteReadActivity, presentLobby, presentLobbyRecord, readLobby, touchLobby } from "./lobby-access.ts";
import { removeMembers, upsertMembers } from "./lobby-members.ts";
import { readLobbyMembers } from "./lobby-queries.ts";
import {
  LOBBY_IDLE_TIMEOUT_DEFAULT_SECONDS,
  LobbyEvents,
  type LobbyObject,
  type TLobbyCreateBody,
  type TLobbyJoinBody,
  type TLobbyModifyBody,
} from "./lobby.schema.ts";

/** Why a lobby ended, as Lobby Delete tells its members. */
export type LobbyEndReason = "deleted" | "idle";

async function insertLobby(
  change: Change,
  input: { applicationId: string; secret: string | null; metadata: string | null; idleTimeoutSeconds: number },
): Promise<Lobby> {
  const now = new Date();
  return change.tx.lobby.create({
    data: { id: newId(), ...input, lastActivityAt: now, expiresAt: idleDeadline(now, input.idleTimeoutSeconds) },
  });
}

/** Lobby Create or Lobby Update with the whole lobby, and the lobby as answered. */
async function announce(change: Change, db: Db, lobby: Lobby, type: typeof LobbyEvents.Create | typeof LobbyEvents.Update): Promise<LobbyObject> {
  const object = await presentLobby(change.tx, lobby, db);
  await change.emit(type, object);
  return object;
}

/** POST /lobbies (Bot): a lobby of the bot's application with the members named (dropped as in bulk). */
export async function createLobby(ctx: ServiceContext, body: TLobbyCreateBody): Promise<LobbyObject> {
  const applicationId = applicationOf(ctx.actor);
  return runChange(ctx, async (change) => {
    const lobby = await insertLobby(change, {
      applicationId,
      secret: null,
      metadata: storeMetadata(body.metadata),
      idleTimeoutSeconds: body.idle_timeout_seconds ?? LOBBY_IDLE_TIMEOUT_DEFAULT_SECONDS,
    });
    await upsertMembers(change, lobby, body.members ?? [], "drop");
    return announce(change, ctx.db, lobby, LobbyEvents.Create);
  });
}

/**
 * PUT /lobbies (Bearer, sdk.social_layer): the application's live lobby with this secret,
 * made when there is none, and the caller in it with their metadata. `lobby_metadata`
 * overwrites the lobby's. A lobby with the secret that went idle is ended first.
 */
export async function createOrJoinLobby(ctx: ServiceContext, body: TLobbyJoinBody): Promise<LobbyObject> {
  const applicationId = applicationOf(ctx.actor);
  const attempt = () =>
    runChange(ctx, async (change) => {
      const now = new Date();
      const found = await change.tx.lobby.findUnique({ where: { applicationId_secret: { applicationId, secret: body.secret } } });
      if (found && found.expiresAt <= now) await endLobby(change, found, "idle", now);
      const isNew = !found || found.expiresAt <= now;
      let lobby = isNew
        ? await insertLobby(change, {
            applicationId,
            secret: body.secret,
            metadata: storeMetadata(body.lobby_metadata),
            idleTimeoutSeconds: body.idle_timeout_seconds ?? LOBBY_IDLE_TIMEOUT_DEFAULT_SECONDS,
          })
        : await touchLobby(change.sql, applicationId, found.id, { idleTimeoutSeconds: body.idle_timeout_seconds, now });
      if (!isNew && body.lobby_metadata !== undefined) {
        lobby = await change.tx.lobby.update({ where: { id: lobby.id }, data: { metadata: storeMetadata(body.lobby_metadata) } });
      }
      const member = { id: ctx.actor.userId, ...(body.member_metadata !== undefined && { metadata: body.member_metadata }) };
      await upsertMembers(change, lobby, [member], "strict");
      return announce(change, ctx.db, lobby, isNew ? LobbyEvents.Create : LobbyEvents.Update);
    });
  try {
    return await attempt();
  } catch (error) {
    // Two callers made the same new lobby at once: the one that lost joins the winner's.
    if (isUniqueViolation(error)) return attempt();
    throw error;
  }
}

/** GET /lobbies/{lobby.id} (Bot). */
export async function getLobby(ctx: ServiceContext, lobbyId: string): Promise<LobbyObject> {
  const record = await readLobby(ctx.db, applicationOf(ctx.actor), lobbyId);
  noteReadActivity(ctx.db, record);
  return presentLobbyRecord(ctx.db, record);
}

/** PATCH /lobbies/{lobby.id} (Bot): metadata overwrites; `members` is the new member list. */
export async function modifyLobby(ctx: ServiceContext, lobbyId: string, body: TLobbyModifyBody): Promise<LobbyObject> {
  const applicationId = applicationOf(ctx.actor);
  return runChange(ctx, async (change) => {
    let lobby = await touchLobby(change.sql, applicationId, lobbyId, { idleTimeoutSeconds: body.idle_timeout_seconds });
    if (body.metadata !== undefined) lobby = await change.tx.lobby.update({ where: { id: lobbyId }, data: { metadata: storeMetadata(body.metadata) } });
    if (body.members) {
      const listed = new Set(body.members.map((member) => member.id));
      const current = await readLobbyMembers(change.sql, lobbyId);
      await removeMembers(
        change,
        lobbyId,
        current.map((row) => row.userId).filter((id) => !listed.has(id)),
      );
      await upsertMembers(change, lobby, body.members, "drop");
    }
    return announce(change, ctx.db, lobby, LobbyEvents.Update);
  });
}

/** DELETE /lobbies/{lobby.id} (Bot): safe when already gone (or never the application's). */
export async function deleteLobby(ctx: ServiceContext, lobbyId: string): Promise<void> {
  const applicationId = applicationOf(ctx.actor);
  await runChange(ctx, async (change) => {
    const lobby = await change.tx.lobby.findFirst({ where: { id: lobbyId, applicationId } });
    if (lobby) await endLobby(change, lobby, "deleted");
  });
}

/**
 * Deletes a lobby with its members and messages; Lobby Delete. Idle shutdown deletes only
 * if it is still idle at `idleAt`, so a sweep racing a change or another sweep never ends
 * a lobby twice or one that just came alive. True when this call ended it.
 */
export async function endLobby(change: Change, lobby: Pick<Lobby, "id" | "applicationId">, reason: LobbyEndReason, idleAt?: Date): Promise<boolean> {
  const gone = await change.tx.lobby.deleteMany({ where: { id: lobby.id, ...(reason === "idle" && idleAt && { expiresAt: { lte: idleAt } }) } });
  if (gone.count === 0) return false;
  await change.emit(LobbyEvents.Delete, { id: lobby.id, application_id: lobby.applicationId, reason });
  return true;
}
