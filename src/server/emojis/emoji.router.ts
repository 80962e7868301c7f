import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { listEmojisForDashboard } from "./emoji-dashboard.service.ts";
import { ZGuildEmojiCreateBodySchema, ZGuildEmojiModifyBodySchema } from "./emoji.schema.ts";
import { createGuildEmoji, deleteGuildEmoji, modifyGuildEmoji } from "./emoji.service.ts";

const ZEmojiIdSchema = ZGuildIdInputSchema.extend({ emojiId: ZSnowflakeSchema });

export const emojiRouter = createTRPCRouter({
  /** The Emoji & Stickers page: each emoji with why the viewer may not edit it, the slots, and why they may not add one. */
  rows: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listEmojisForDashboard(ctx, input)),
  create: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ body: ZGuildEmojiCreateBodySchema }))
    .mutation(({ ctx, input }) => createGuildEmoji(ctx, input)),
  modify: protectedProcedure.input(ZEmojiIdSchema.extend({ body: ZGuildEmojiModifyBodySchema })).mutation(({ ctx, input }) => modifyGuildEmoji(ctx, input)),
  delete: protectedProcedure.input(ZEmojiIdSchema).mutation(({ ctx, input }) => deleteGuildEmoji(ctx, input)),
});
