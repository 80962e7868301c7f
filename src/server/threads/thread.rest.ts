import { created, noContent, ok, route } from "~/server/rest/route.ts";
import { joinThread, leaveThread } from "./thread-members.service.ts";
import { ZThreadCreateBodySchema } from "./thread.schema.ts";
import { createThread, listActiveGuildThreads } from "./thread.service.ts";

// GET, PATCH and DELETE /channels/{channel.id} reach threads through the channel rows.
export const threadRoutes = [
  route({
    method: "POST",
    path: "/channels/:channelId/threads",
    auth: "bot",
    body: ZThreadCreateBodySchema,
    handler: async ({ ctx, params, body }) => created(await createThread(ctx, { channelId: params.channelId, body })),
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
    method: "GET",
    path: "/guilds/:guildId/threads/active",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await listActiveGuildThreads(ctx, params)),
  }),
];
