import { created, noContent, ok, route } from "~/server/rest/route.ts";
import {
  createApplicationEmoji,
  deleteApplicationEmoji,
  getApplicationEmoji,
  listApplicationEmojis,
  modifyApplicationEmoji,
} from "./application-emoji.service.ts";
import {
  ZApplicationEmojiCreateBodySchema,
  ZApplicationEmojiModifyBodySchema,
  ZGuildEmojiCreateBodySchema,
  ZGuildEmojiModifyBodySchema,
} from "./emoji.schema.ts";
import { createGuildEmoji, deleteGuildEmoji, getGuildEmoji, listGuildEmojis, modifyGuildEmoji } from "./emoji.service.ts";

export const emojiRoutes = [
  route({
    method: "GET",
    path: "/guilds/:guildId/emojis",
    auth: "bot",
    open: { to: "member", why: "any member sees the guild's emojis" },
    handler: async ({ ctx, params }) => ok(await listGuildEmojis(ctx, params)),
  }),
  route({
    method: "POST",
    path: "/guilds/:guildId/emojis",
    auth: "bot",
    body: ZGuildEmojiCreateBodySchema,
    handler: async ({ ctx, params, body }) => created(await createGuildEmoji(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/emojis/:emojiId",
    auth: "bot",
    open: { to: "member", why: "any member sees the guild's emojis" },
    handler: async ({ ctx, params }) => ok(await getGuildEmoji(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/emojis/:emojiId",
    auth: "bot",
    body: ZGuildEmojiModifyBodySchema,
    handler: async ({ ctx, params, body }) => ok(await modifyGuildEmoji(ctx, { ...params, body })),
  }),
  route({
    method: "DELETE",
    path: "/guilds/:guildId/emojis/:emojiId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await deleteGuildEmoji(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "GET",
    path: "/applications/:applicationId/emojis",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await listApplicationEmojis(ctx, params)),
  }),
  route({
    method: "POST",
    path: "/applications/:applicationId/emojis",
    auth: "bot",
    body: ZApplicationEmojiCreateBodySchema,
    handler: async ({ ctx, params, body }) => created(await createApplicationEmoji(ctx, { applicationId: params.applicationId, body })),
  }),
  route({
    method: "GET",
    path: "/applications/:applicationId/emojis/:emojiId",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await getApplicationEmoji(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/applications/:applicationId/emojis/:emojiId",
    auth: "bot",
    body: ZApplicationEmojiModifyBodySchema,
    handler: async ({ ctx, params, body }) => ok(await modifyApplicationEmoji(ctx, { ...params, body })),
  }),
  route({
    method: "DELETE",
    path: "/applications/:applicationId/emojis/:emojiId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await deleteApplicationEmoji(ctx, params);
      return noContent();
    },
  }),
];
