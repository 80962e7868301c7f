import { noContent, ok, route } from "~/server/rest/route.ts";
import { createLobbyInvite, setLobbyChannelLink } from "./lobby-channel.service.ts";
import { bulkLobbyMembers, putLobbyMember, removeLobbyMember } from "./lobby-member.service.ts";
import { listLobbyMessages, postLobbyMessage, setModerationMetadata } from "./lobby-message.service.ts";
import {
  ZLobbyBulkMembersBodySchema,
  ZLobbyChannelLinkBodySchema,
  ZLobbyCreateBodySchema,
  ZLobbyJoinBodySchema,
  ZLobbyMemberBodySchema,
  ZLobbyMessageBodySchema,
  ZLobbyMessagesQuerySchema,
  ZLobbyModifyBodySchema,
  ZModerationMetadataBodySchema,
} from "./lobby.schema.ts";
import { createLobby, createOrJoinLobby, deleteLobby, getLobby, modifyLobby } from "./lobby.service.ts";

// Spec 4.7 and 5: the game server's operations take the application's Bot token; those a
// game client makes for its user take a Bearer token with sdk.social_layer. Creates answer
// 200 as the platform does.
const SOCIAL = ["sdk.social_layer"] as const;

export const lobbyRoutes = [
  route({
    method: "POST",
    path: "/lobbies",
    auth: "bot",
    open: { to: "outsider", why: "a lobby of the caller's own application" },
    devBucket: "devLobbyCreate",
    body: ZLobbyCreateBodySchema.default({}),
    handler: async ({ ctx, body }) => ok(await createLobby(ctx, body)),
  }),
  route({
    method: "PUT",
    path: "/lobbies",
    auth: "bearer",
    scopes: SOCIAL,
    open: { to: "outsider", why: "a lobby of the caller's own application" },
    devBucket: "devLobbyJoin",
    body: ZLobbyJoinBodySchema,
    handler: async ({ ctx, body }) => ok(await createOrJoinLobby(ctx, body)),
  }),
  route({
    method: "GET",
    path: "/lobbies/:lobbyId",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await getLobby(ctx, params.lobbyId)),
  }),
  route({
    method: "PATCH",
    path: "/lobbies/:lobbyId",
    auth: "bot",
    devBucket: "devLobbyModify",
    body: ZLobbyModifyBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await modifyLobby(ctx, params.lobbyId, body)),
  }),
  route({
    method: "DELETE",
    path: "/lobbies/:lobbyId",
    auth: "bot",
    open: { to: "outsider", why: "another application's lobby is as unknown as a deleted one, and deleting that is safe (spec 4.7)", noop: true },
    handler: async ({ ctx, params }) => {
      await deleteLobby(ctx, params.lobbyId);
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/lobbies/:lobbyId/members/bulk",
    auth: "bot",
    devBucket: "devLobbyBulk",
    body: ZLobbyBulkMembersBodySchema,
    handler: async ({ ctx, params, body }) => ok(await bulkLobbyMembers(ctx, { lobbyId: params.lobbyId, body })),
  }),
  route({
    method: "DELETE",
    path: "/lobbies/:lobbyId/members/@me",
    auth: "bearer",
    scopes: SOCIAL,
    open: { to: "member", why: "a member may leave" },
    handler: async ({ ctx, params }) => {
      await removeLobbyMember(ctx, { lobbyId: params.lobbyId, userId: ctx.actor.userId });
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/lobbies/:lobbyId/members/@me/invites",
    auth: "bearer",
    scopes: SOCIAL,
    open: { to: "member", why: "a member invites themselves (spec 4.7)" },
    devBucket: "devLobbyInviteSelf",
    handler: async ({ ctx, params }) => ok(await createLobbyInvite(ctx, { lobbyId: params.lobbyId, userId: ctx.actor.userId })),
  }),
  route({
    method: "PUT",
    path: "/lobbies/:lobbyId/members/:userId",
    auth: "bot",
    devBucket: "devLobbyMemberPut",
    body: ZLobbyMemberBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await putLobbyMember(ctx, { lobbyId: params.lobbyId, userId: params.userId, body })),
  }),
  route({
    method: "DELETE",
    path: "/lobbies/:lobbyId/members/:userId",
    auth: "bot",
    devBucket: "devLobbyMemberDelete",
    handler: async ({ ctx, params }) => {
      await removeLobbyMember(ctx, { lobbyId: params.lobbyId, userId: params.userId });
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/lobbies/:lobbyId/members/:userId/invites",
    auth: "bot",
    devBucket: "devLobbyInviteUser",
    handler: async ({ ctx, params }) => ok(await createLobbyInvite(ctx, { lobbyId: params.lobbyId, userId: params.userId })),
  }),
  route({
    method: "PATCH",
    path: "/lobbies/:lobbyId/channel-linking",
    auth: "bearer",
    scopes: SOCIAL,
    devBucket: "devLobbyChannelLink",
    body: ZLobbyChannelLinkBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await setLobbyChannelLink(ctx, { lobbyId: params.lobbyId, channelId: body.channel_id ?? null })),
  }),
  route({
    method: "POST",
    path: "/lobbies/:lobbyId/messages",
    auth: "bearer",
    scopes: SOCIAL,
    open: { to: "member", why: "members talk in their lobby (spec 4.7)" },
    devBucket: "devLobbyMessage",
    body: ZLobbyMessageBodySchema,
    handler: async ({ ctx, params, body }) => ok(await postLobbyMessage(ctx, { lobbyId: params.lobbyId, body })),
  }),
  route({
    method: "GET",
    path: "/lobbies/:lobbyId/messages",
    auth: "bearer",
    scopes: SOCIAL,
    open: { to: "member", why: "members read their lobby (spec 4.7)" },
    query: ZLobbyMessagesQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await listLobbyMessages(ctx, { lobbyId: params.lobbyId, query })),
  }),
  route({
    method: "PUT",
    path: "/lobbies/:lobbyId/messages/:messageId/moderation-metadata",
    auth: "bot",
    body: ZModerationMetadataBodySchema,
    handler: async ({ ctx, params, body }) => {
      await setModerationMetadata(ctx, { lobbyId: params.lobbyId, messageId: params.messageId, metadata: body });
      return noContent();
    },
  }),
];
