import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { listStickersForDashboard } from "./sticker-dashboard.service.ts";
import { ZStickerModifyBodySchema, ZStickerUploadBodySchema } from "./sticker.schema.ts";
import { createGuildSticker, deleteGuildSticker, modifyGuildSticker } from "./sticker.service.ts";

const ZStickerIdSchema = ZGuildIdInputSchema.extend({ stickerId: ZSnowflakeSchema });

export const stickerRouter = createTRPCRouter({
  /** The Emoji & Stickers page: each sticker with why the viewer may not edit it, the slots, and why they may not add one. */
  rows: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listStickersForDashboard(ctx, input)),
  /** The file comes as a data URI and reaches the service as the file a REST form carries. */
  create: protectedProcedure.input(ZGuildIdInputSchema.extend({ body: ZStickerUploadBodySchema })).mutation(({ ctx, input }) => createGuildSticker(ctx, input)),
  modify: protectedProcedure.input(ZStickerIdSchema.extend({ body: ZStickerModifyBodySchema })).mutation(({ ctx, input }) => modifyGuildSticker(ctx, input)),
  delete: protectedProcedure.input(ZStickerIdSchema).mutation(({ ctx, input }) => deleteGuildSticker(ctx, input)),
});
