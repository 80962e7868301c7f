import { Prisma, type Lobby, type LobbyMessage } from "~/generated/prisma/client.ts";
import type { Actor } from "~/server/auth/actor.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import type { LobbyRecord } from "~/server/state/state-cache-store.ts";
import { ApiError, fromZodError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { ZCreateMessageBodySchema } from "~/server/messages/message.schema.ts";
import { sendMessage } from "~/server/messages/message.service.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { readUserCards } from "~/server/users/user-queries.ts";
import { storeMetadata, toLobbyMessageObject } from "./lobby.dto.ts";
import { applicationOf, isLobbyMember, noteReadActivity, readLobby, touchLobby } from "./lobby-access.ts";
import {
  LOBBY_MESSAGES_LIMIT_DEFAULT,
  LobbyEvents,
  type LobbyMessageObject,
  type TLobbyMessageBody,
  type TLobbyMessagesQuery,
  type TModerationMetadataBody,
} from "./lobby.schema.ts";

/** The live lobby of which the caller is a member: only members read and write its messages (50001 for others). */
async function memberLobby(ctx: ServiceContext, applicationId: string, lobbyId: string): Promise<LobbyRecord> {
  const record = await readLobby(ctx.db, applicationId, lobbyId);
  if (!isLobbyMember(record, ctx.actor.userId)) throw new ApiError("MISSING_ACCESS");
  return record;
}

/**
 * POST /lobbies/{lobby.id}/messages (Bearer, sdk.social_layer): stores the message and
 * delivers it to the members (Lobby Message Create), then copies it into the linked
 * channel. Forwarding runs after the lobby's change has committed, so its failure cannot
 * take the message from the members; it is logged and kept on the message.
 */
export async function postLobbyMessage(ctx: ServiceContext, input: { lobbyId: string; body: TLobbyMessageBody }): Promise<LobbyMessageObject> {
  const applicationId = applicationOf(ctx.actor);
  const record = await memberLobby(ctx, applicationId, input.lobbyId);
  const row: LobbyMessage = {
    id: newId(),
    lobbyId: record.row.id,
    authorId: ctx.actor.userId,
    content: input.body.content,
    flags: input.body.flags ?? 0,
    metadata: storeMetadata(input.body.metadata),
    moderationMetadata: null,
    forwardedMessageId: null,
    forwardError: null,
    createdAt: new Date(),
  };
  const { lobby, object } = await runChange({ db: ctx.db, actor: null }, async (change) => {
    // The lobby read above needs no second read: the conditional UPDATE checks it is still live (10031 otherwise).
    const lobby = await touchLobby(change.sql, applicationId, record.row.id, { known: record.row, now: row.createdAt });
    await change.sql.run(Prisma.sql`INSERT INTO "LobbyMessage" ("id", "lobbyId", "authorId", "content", "flags", "metadata", "createdAt")
      VALUES (${row.id}, ${row.lobbyId}, ${row.authorId}, ${row.content}, ${row.flags}, ${row.metadata}, ${row.createdAt})`);
    const author = (await readUserCards(change.sql, [row.authorId])).get(row.authorId);
    if (!author) throw new ApiError("UNKNOWN_USER");
    const object = toLobbyMessageObject({ ...row, author }, applicationId);
    await change.emit(LobbyEvents.MessageCreate, object);
    return { lobby, object };
  });
  if (lobby.linkedChannelId) await forwardToChannel(ctx.db, lobby, row, lobby.linkedChannelId);
  return object;
}

/**
 * Posts the message's copy in the linked channel as its author, through the messages
 * domain's own checks (the author must be able to send there; content and flags as any
 * message). The sender's metadata stays in the lobby.
 */
async function forwardToChannel(db: Db, lobby: Lobby, row: LobbyMessage, channelId: string): Promise<void> {
  const author: Actor = { kind: "user", userId: row.authorId, applicationId: lobby.applicationId, scopes: new Set() };
  try {
    const parsed = ZCreateMessageBodySchema.safeParse({ content: row.content, flags: row.flags });
    if (!parsed.success) throw fromZodError(parsed.error, { content: row.content, flags: row.flags });
    const message = await sendMessage({ db, actor: author }, { channelId, body: parsed.data, files: [] });
    await runChange({ db, actor: null }, ({ tx }) => tx.lobbyMessage.update({ where: { id: row.id }, data: { forwardedMessageId: message.id } }));
  } catch (error) {
    const reason = error instanceof ApiError ? `${error.code}: ${error.message}` : "unexpected error";
    console.warn(
      `[lobbies] message ${row.id} of lobby ${lobby.id} was not forwarded to channel ${channelId}: ${reason}`,
      error instanceof ApiError ? "" : error,
    );
    await runChange({ db, actor: null }, ({ tx }) => tx.lobbyMessage.updateMany({ where: { id: row.id }, data: { forwardError: reason } }));
  }
}

/** GET /lobbies/{lobby.id}/messages (Bearer, sdk.social_layer): the most recent, newest first. */
export async function listLobbyMessages(ctx: ServiceContext, input: { lobbyId: string; query: TLobbyMessagesQuery }): Promise<LobbyMessageObject[]> {
  const applicationId = applicationOf(ctx.actor);
  const record = await memberLobby(ctx, applicationId, input.lobbyId);
  noteReadActivity(ctx.db, record);
  const lobby = record.row;
  const rows = await ctx.db.lobbyMessage.findMany({
    where: { lobbyId: lobby.id },
    include: { author: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.query.limit ?? LOBBY_MESSAGES_LIMIT_DEFAULT,
  });
  return rows.map((row) => toLobbyMessageObject(row, applicationId));
}

/**
 * PUT /lobbies/{lobby.id}/messages/{message.id}/moderation-metadata (Bot): replaces the
 * message's moderation metadata; game clients hear it as Lobby Message Update.
 */
export async function setModerationMetadata(
  ctx: ServiceContext,
  input: { lobbyId: string; messageId: string; metadata: TModerationMetadataBody },
): Promise<LobbyMessageObject> {
  const applicationId = applicationOf(ctx.actor);
  return runChange(ctx, async (change) => {
    const lobby = await touchLobby(change.sql, applicationId, input.lobbyId);
    const found = await change.tx.lobbyMessage.findFirst({ where: { id: input.messageId, lobbyId: lobby.id }, select: { id: true } });
    if (!found) throw new ApiError("UNKNOWN_MESSAGE");
    const row = await change.tx.lobbyMessage.update({
      where: { id: found.id },
      data: { moderationMetadata: storeMetadata(input.metadata) },
      include: { author: true },
    });
    const object = toLobbyMessageObject(row, applicationId);
    await change.emit(LobbyEvents.MessageUpdate, object);
    return object;
  });
}

/**
 * Deletes a lobby message (the dashboard's moderation; the platform has no REST route for
 * it); members' clients hear Lobby Message Delete. A copy forwarded to the linked channel is
 * the guild's message and stays, for the guild's moderators to judge. 10008 when the message
 * is not in this lobby.
 */
export async function deleteLobbyMessage(ctx: ServiceContext, input: { lobbyId: string; messageId: string }): Promise<void> {
  const applicationId = applicationOf(ctx.actor);
  await runChange(ctx, async (change) => {
    const lobby = await touchLobby(change.sql, applicationId, input.lobbyId);
    const gone = await change.tx.lobbyMessage.deleteMany({ where: { id: input.messageId, lobbyId: lobby.id } });
    if (gone.count === 0) throw new ApiError("UNKNOWN_MESSAGE");
    await change.emit(LobbyEvents.MessageDelete, { id: input.messageId, lobby_id: lobby.id });
  });
}
