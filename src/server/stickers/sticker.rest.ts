import { created, noContent, ok, route } from "~/server/rest/route.ts";
import { ZStickerCreateBodySchema, ZStickerModifyBodySchema } from "./sticker.schema.ts";
import { createGuildSticker, deleteGuildSticker, getGuildSticker, getSticker, listGuildStickers, modifyGuildSticker } from "./sticker.service.ts";

export const stickerRoutes = [
  route({
    method: "GET",
    path: "/guilds/:guildId/stickers",
    auth: "bot",
    open: { to: "member", why: "any member sees the guild's stickers" },
    handler: async ({ ctx, params }) => ok(await listGuildStickers(ctx, params)),
  }),
  route({
    method: "POST",
    path: "/guilds/:guildId/stickers",
    auth: "bot",
    form: true,
    body: ZStickerCreateBodySchema,
    handler: async ({ ctx, params, body }) => created(await createGuildSticker(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/stickers/:stickerId",
    auth: "bot",
    open: { to: "member", why: "any member sees the guild's stickers" },
    handler: async ({ ctx, params }) => ok(await getGuildSticker(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/stickers/:stickerId",
    auth: "bot",
    body: ZStickerModifyBodySchema,
    handler: async ({ ctx, params, body }) => ok(await modifyGuildSticker(ctx, { ...params, body })),
  }),
  route({
    method: "DELETE",
    path: "/guilds/:guildId/stickers/:stickerId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await deleteGuildSticker(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "GET",
    path: "/stickers/:stickerId",
    auth: "bot",
    open: { to: "member", why: "any member of the sticker's guild sees it" },
    handler: async ({ ctx, params }) => ok(await getSticker(ctx, params)),
  }),
];
