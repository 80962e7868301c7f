import { noContent, ok, route } from "~/server/rest/route.ts";
import { ZListReactionsQuerySchema } from "./reaction.schema.ts";
import { addOwnReaction, listReactionUsers, removeAllReactions, removeEmojiReactions, removeOwnReaction, removeUserReaction } from "./reactions.service.ts";

const MESSAGE = "/channels/:channelId/messages/:messageId/reactions";

export const reactionRoutes = [
  route({
    method: "PUT",
    path: `${MESSAGE}/:emoji/@me`,
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await addOwnReaction(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: `${MESSAGE}/:emoji/@me`,
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await removeOwnReaction(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: `${MESSAGE}/:emoji/:userId`,
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await removeUserReaction(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "GET",
    path: `${MESSAGE}/:emoji`,
    auth: "bot",
    query: ZListReactionsQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await listReactionUsers(ctx, { ...params, query })),
  }),
  route({
    method: "DELETE",
    path: `${MESSAGE}/:emoji`,
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await removeEmojiReactions(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: MESSAGE,
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await removeAllReactions(ctx, params);
      return noContent();
    },
  }),
];
