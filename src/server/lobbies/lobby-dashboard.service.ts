// The dashboard's Lobbies pages: the owner of an application watches and moderates its lobbies.
// Someone else's application reads as unknown, whether or not it exists. Changes go through the
// same services as the game server's REST calls, acting for the application, so their rules
// (idle expiry, events, what counts as activity) live once.
import { Prisma } from "~/generated/prisma/client.ts";
import type { Actor } from "~/server/auth/actor.ts";
import type { ServiceContext } from "~/server/context.ts";
import { orderBySnowflake, snowflakeBeyond } from "~/server/db/snowflake-sql.ts";
import { ownedApplication } from "~/server/applications/application-dashboard.service.ts";
import { readMetadata, toLobbyObject } from "./lobby.dto.ts";
import { findLobby, linkedChannelObject } from "./lobby-access.ts";
import { removeLobbyMember } from "./lobby-member.service.ts";
import { deleteLobbyMessage, setModerationMetadata } from "./lobby-message.service.ts";
import type { LobbyMessageObject, LobbyMetadata, LobbyObject, TModerationMetadataBody } from "./lobby.schema.ts";
import { deleteLobby } from "./lobby.service.ts";

export const LOBBY_LIST_PAGE_SIZE = 25;
export const LOBBY_MESSAGES_PAGE_SIZE = 50;

type DashboardApplicationRef = { id: string; name: string };

/** A lobby's linked channel with the guild it is in. */
type DashboardLinkedChannel = { id: string; name: string; guildId: string | null; guildName: string | null };

/** A live lobby in the application's list. */
type DashboardLobbySummary = {
  id: string;
  memberCount: number;
  metadata: LobbyMetadata | null;
  linkedChannel: DashboardLinkedChannel | null;
  createdAt: string;
  lastActivityAt: string;
  /** When it shuts down if nothing happens in it before. */
  expiresAt: string;
  idleTimeoutSeconds: number;
};

export type DashboardLobbyList = {
  application: DashboardApplicationRef;
  lobbies: DashboardLobbySummary[];
  page: number;
  pageSize: number;
  /** Live lobbies of the application. */
  total: number;
};

type DashboardLobbyUser = { id: string; username: string; globalName: string | null; avatar: string | null };

type DashboardLobbyMember = { user: DashboardLobbyUser; flags: number; metadata: LobbyMetadata | null; joinedAt: string };

export type DashboardLobby = DashboardLobbySummary & {
  application: DashboardApplicationRef;
  /** As GET /lobbies/{lobby.id} answers the game server. */
  lobby: LobbyObject;
  members: DashboardLobbyMember[];
};

/** What became of a message's copy in the lobby's linked channel. */
type LobbyMessageForwarding =
  | { state: "forwarded"; messageId: string; channel: { id: string; name: string; guildId: string | null } | null }
  | { state: "failed"; reason: string }
  /** The lobby had no linked channel when it was sent (or forwarding has not finished). */
  | { state: "none" };

type DashboardLobbyMessage = {
  id: string;
  author: DashboardLobbyUser;
  content: string;
  flags: number;
  metadata: LobbyMetadata | null;
  moderationMetadata: LobbyMetadata | null;
  createdAt: string;
  forwarding: LobbyMessageForwarding;
};

export type DashboardLobbyMessagesPage = {
  messages: DashboardLobbyMessage[];
  /** The cursor of the next (older) page; null at the lobby's first message. */
  nextCursor: string | null;
};

const USER_SELECT = { id: true, username: true, globalName: true, avatar: true } as const;

const SUMMARY_SELECT = {
  id: true,
  metadata: true,
  createdAt: true,
  lastActivityAt: true,
  expiresAt: true,
  idleTimeoutSeconds: true,
  linkedChannel: { select: { id: true, name: true, guildId: true, guild: { select: { name: true } } } },
  _count: { select: { members: true } },
} as const satisfies Prisma.LobbySelect;

type SummaryRow = Prisma.LobbyGetPayload<{ select: typeof SUMMARY_SELECT }>;

function toSummary(row: SummaryRow): DashboardLobbySummary {
  const channel = row.linkedChannel;
  return {
    id: row.id,
    memberCount: row._count.members,
    metadata: readMetadata(row.metadata),
    linkedChannel: channel ? { id: channel.id, name: channel.name, guildId: channel.guildId, guildName: channel.guild?.name ?? null } : null,
    createdAt: row.createdAt.toISOString(),
    lastActivityAt: row.lastActivityAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    idleTimeoutSeconds: row.idleTimeoutSeconds,
  };
}

/** The application as its lobby pages name it, if the signed-in user owns it (10002 otherwise). */
async function ownedApplicationRef(ctx: ServiceContext, applicationId: string): Promise<DashboardApplicationRef> {
  const { id, name } = await ownedApplication(ctx, applicationId);
  return { id, name };
}

/** The owner acting for their application, as its game server does, for the lobby services. */
function forApplication(ctx: ServiceContext, applicationId: string): ServiceContext {
  const actor: Actor = { kind: "user", userId: ctx.actor.userId, applicationId, scopes: new Set() };
  return { db: ctx.db, actor, auditReason: ctx.auditReason };
}

/** The application's live lobbies, newest first, a page at a time. */
export async function listApplicationLobbies(ctx: ServiceContext, input: { applicationId: string; page?: number }): Promise<DashboardLobbyList> {
  const application = await ownedApplicationRef(ctx, input.applicationId);
  const page = input.page ?? 1;
  // A lobby idle past expiresAt is gone even before the sweep deletes it (lobby-access.ts).
  const where = { applicationId: application.id, expiresAt: { gt: new Date() } };
  const [total, rows] = await Promise.all([
    ctx.db.lobby.count({ where }),
    ctx.db.lobby.findMany({
      where,
      select: SUMMARY_SELECT,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * LOBBY_LIST_PAGE_SIZE,
      take: LOBBY_LIST_PAGE_SIZE,
    }),
  ]);
  return { application, lobbies: rows.map(toSummary), page, pageSize: LOBBY_LIST_PAGE_SIZE, total };
}

/** One live lobby with its members and their users; 10031 Unknown Lobby once it has ended. */
export async function getApplicationLobby(ctx: ServiceContext, input: { applicationId: string; lobbyId: string }): Promise<DashboardLobby> {
  const application = await ownedApplicationRef(ctx, input.applicationId);
  const found = await findLobby(ctx.db, application.id, input.lobbyId);
  const [row, members, linkedChannel] = await Promise.all([
    ctx.db.lobby.findUniqueOrThrow({ where: { id: found.id }, select: SUMMARY_SELECT }),
    ctx.db.lobbyMember.findMany({
      where: { lobbyId: found.id },
      include: { user: { select: USER_SELECT } },
      orderBy: [{ joinedAt: "asc" }, { userId: "asc" }],
    }),
    linkedChannelObject(ctx.db, found.linkedChannelId),
  ]);
  return {
    ...toSummary(row),
    application,
    lobby: toLobbyObject({ ...found, members }, linkedChannel),
    members: members.map((member) => ({
      user: member.user,
      flags: member.flags,
      metadata: readMetadata(member.metadata),
      joinedAt: member.joinedAt.toISOString(),
    })),
  };
}

/** A live lobby's messages, newest first; `cursor` is the id the next (older) page starts below. */
export async function listApplicationLobbyMessages(
  ctx: ServiceContext,
  input: { applicationId: string; lobbyId: string; cursor?: string | null },
): Promise<DashboardLobbyMessagesPage> {
  const application = await ownedApplicationRef(ctx, input.applicationId);
  const lobby = await findLobby(ctx.db, application.id, input.lobbyId);
  const column = Prisma.sql`"id"`;
  const bound = input.cursor ? Prisma.sql`AND ${snowflakeBeyond(column, "<", input.cursor)}` : Prisma.empty;
  // One more than the page tells whether older messages remain.
  const listed = await ctx.db.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "LobbyMessage" WHERE "lobbyId" = ${lobby.id} ${bound} ${orderBySnowflake(column, "DESC")} LIMIT ${LOBBY_MESSAGES_PAGE_SIZE + 1}`;
  const ids = listed.slice(0, LOBBY_MESSAGES_PAGE_SIZE).map((row) => row.id);
  const rows = await ctx.db.lobbyMessage.findMany({ where: { id: { in: ids } }, include: { author: { select: USER_SELECT } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const copyIds = rows.flatMap((row) => (row.forwardedMessageId ? [row.forwardedMessageId] : []));
  const copies = copyIds.length
    ? await ctx.db.message.findMany({ where: { id: { in: copyIds } }, select: { id: true, channel: { select: { id: true, name: true, guildId: true } } } })
    : [];
  const channelOfCopy = new Map(copies.map((copy) => [copy.id, copy.channel]));
  const messages = ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const forwarding: LobbyMessageForwarding = row.forwardedMessageId
      ? { state: "forwarded", messageId: row.forwardedMessageId, channel: channelOfCopy.get(row.forwardedMessageId) ?? null }
      : row.forwardError
        ? { state: "failed", reason: row.forwardError }
        : { state: "none" };
    return [
      {
        id: row.id,
        author: row.author,
        content: row.content,
        flags: row.flags,
        metadata: readMetadata(row.metadata),
        moderationMetadata: readMetadata(row.moderationMetadata),
        createdAt: row.createdAt.toISOString(),
        forwarding,
      },
    ];
  });
  return { messages, nextCursor: listed.length > LOBBY_MESSAGES_PAGE_SIZE ? (ids.at(-1) ?? null) : null };
}

/** Removes a member, as DELETE /lobbies/{lobby.id}/members/{user.id} does. */
export async function removeApplicationLobbyMember(ctx: ServiceContext, input: { applicationId: string; lobbyId: string; userId: string }): Promise<void> {
  await ownedApplication(ctx, input.applicationId);
  await removeLobbyMember(forApplication(ctx, input.applicationId), input);
}

/** Ends a lobby, as DELETE /lobbies/{lobby.id} does (safe when it has already ended). */
export async function deleteApplicationLobby(ctx: ServiceContext, input: { applicationId: string; lobbyId: string }): Promise<void> {
  await ownedApplication(ctx, input.applicationId);
  await deleteLobby(forApplication(ctx, input.applicationId), input.lobbyId);
}

/** Replaces a message's moderation metadata, as the game server's PUT .../moderation-metadata does. */
export async function setApplicationLobbyModerationMetadata(
  ctx: ServiceContext,
  input: { applicationId: string; lobbyId: string; messageId: string; metadata: TModerationMetadataBody },
): Promise<LobbyMessageObject> {
  await ownedApplication(ctx, input.applicationId);
  return setModerationMetadata(forApplication(ctx, input.applicationId), input);
}

/** Deletes a lobby message for its members. */
export async function deleteApplicationLobbyMessage(ctx: ServiceContext, input: { applicationId: string; lobbyId: string; messageId: string }): Promise<void> {
  await ownedApplication(ctx, input.applicationId);
  await deleteLobbyMessage(forApplication(ctx, input.applicationId), input);
}
