import { z } from "zod";
import { readMessageRequest } from "~/server/messages/message-validation.ts";
import { created, noContent, ok, route } from "~/server/rest/route.ts";
import { joinThread, leaveThread } from "./thread-members.service.ts";
import { addThreadMember, getThreadMember, listThreadMembers, removeThreadMember } from "./thread-member-manage.service.ts";
import {
  ZArchivedThreadsQuerySchema,
  ZJoinedArchivedThreadsQuerySchema,
  ZMessageThreadBodySchema,
  ZThreadCreateBodySchema,
  ZThreadMemberQuerySchema,
  ZThreadMembersQuerySchema,
} from "./thread.schema.ts";
import { startThreadFromMessage } from "./message-thread.service.ts";
import { listArchivedThreads, listJoinedArchivedThreads } from "./archived-threads.service.ts";
import { createThread, listActiveGuildThreads } from "./thread.service.ts";

// GET, PATCH and DELETE /channels/{channel.id} reach threads through the channel rows.
export const threadRoutes = [
  route({
    method: "POST",
    path: "/channels/:channelId/threads",
    auth: "bot",
    // A forum or media post's first message may bring files: JSON, or multipart as messages take it.
    form: "or-json",
    body: z.unknown(),
    handler: async ({ ctx, params, body }) => {
      const request = readMessageRequest(ZThreadCreateBodySchema, body);
      return created(await createThread(ctx, { channelId: params.channelId, ...request }));
    },
  }),
  route({
    method: "PUT",
    path: "/channels/:channelId/thread-members/@me",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await joinThread(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: "/channels/:channelId/thread-members/@me",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await leaveThread(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "PUT",
    path: "/channels/:channelId/thread-members/:userId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await addThreadMember(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: "/channels/:channelId/thread-members/:userId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await removeThreadMember(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "GET",
    path: "/channels/:channelId/thread-members/:userId",
    auth: "bot",
    query: ZThreadMemberQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await getThreadMember(ctx, { ...params, withMember: query.with_member ?? false })),
  }),
  route({
    method: "GET",
    path: "/channels/:channelId/thread-members",
    auth: "bot",
    query: ZThreadMembersQuerySchema,
    handler: async ({ ctx, params, query }) =>
      ok(await listThreadMembers(ctx, { channelId: params.channelId, withMember: query.with_member ?? false, after: query.after, limit: query.limit })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/threads/active",
    auth: "bot",
    open: { to: "member", why: "lists only the threads the member can view" },
    handler: async ({ ctx, params }) => ok(await listActiveGuildThreads(ctx, params)),
  }),
  route({
    method: "GET",
    path: "/channels/:channelId/threads/archived/public",
    auth: "bot",
    query: ZArchivedThreadsQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await listArchivedThreads(ctx, { channelId: params.channelId, scope: "public", query })),
  }),
  route({
    method: "GET",
    path: "/channels/:channelId/threads/archived/private",
    auth: "bot",
    query: ZArchivedThreadsQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await listArchivedThreads(ctx, { channelId: params.channelId, scope: "private", query })),
  }),
  route({
    method: "GET",
    path: "/channels/:channelId/users/@me/threads/archived/private",
    auth: "bot",
    query: ZJoinedArchivedThreadsQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await listJoinedArchivedThreads(ctx, { channelId: params.channelId, query })),
  }),
  route({
    method: "POST",
    path: "/channels/:channelId/messages/:messageId/threads",
    auth: "bot",
    body: ZMessageThreadBodySchema,
    handler: async ({ ctx, params, body }) => created(await startThreadFromMessage(ctx, { ...params, body })),
  }),
];
