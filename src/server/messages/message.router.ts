import { z } from "zod";
import { withAuditReason, ZAuditReasonInputSchema } from "~/server/trpc/audit-reason.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { DASHBOARD_PAGE_SIZE, loadChannelMessagesPage } from "./message-dashboard.service.ts";
import { addOwnReaction, removeOwnReaction } from "~/server/reactions/reactions.service.ts";
import { pinMessage, unpinMessage } from "./message-pins.service.ts";
import { ZDashboardFilesSchema, ZDashboardMessageBodySchema, ZEditMessageBodySchema } from "./message.schema.ts";
import { deleteChannelMessage, editOwnMessage, sendMessage } from "./message.service.ts";
import { ZSearchGuildMessagesQuerySchema } from "./message-search.schema.ts";
import { searchGuildMessages } from "./message-search.service.ts";
import { DASHBOARD_SEARCH_PAGE_MAX, searchMessagesForDashboard } from "./message-search-dashboard.service.ts";
import { crosspostMessage } from "./crosspost.service.ts";

const ZMessageInputSchema = z.object({ channelId: ZSnowflakeSchema, messageId: ZSnowflakeSchema });
const ZReactionInputSchema = ZMessageInputSchema.extend({ emoji: z.string().min(1).max(100) });

export const messageRouter = createTRPCRouter({
  /** A channel's messages newest first; `cursor` is the `before` of the next older page. */
  list: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, cursor: ZSnowflakeSchema.nullish(), limit: z.number().int().min(1).max(DASHBOARD_PAGE_SIZE).optional() }))
    .query(({ ctx, input }) => loadChannelMessagesPage(ctx, input)),
  /** A guild's messages matching a search, in the channels the user can read; the 110000 answer while its index is built. */
  search: protectedProcedure
    .input(z.object({ guildId: ZSnowflakeSchema, query: ZSearchGuildMessagesQuerySchema }))
    .query(({ ctx, input }) => searchGuildMessages(ctx, input)),
  /** A page of that search as the dashboard draws it: hits with their channel and what the user may do; "indexing" while the index is built. */
  searchPage: protectedProcedure
    .input(
      z.object({
        guildId: ZSnowflakeSchema,
        query: ZSearchGuildMessagesQuerySchema.pick({ content: true, author_id: true, channel_id: true }),
        page: z.number().int().min(1).max(DASHBOARD_SEARCH_PAGE_MAX).default(1),
      }),
    )
    .query(({ ctx, input }) => searchMessagesForDashboard(ctx, input)),
  /** Posts as the signed-in user, through the service bots post with: a reply when `message_reference` names one, files as data URIs. */
  send: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, body: ZDashboardMessageBodySchema, files: ZDashboardFilesSchema.default([]) }))
    .mutation(({ ctx, input }) => sendMessage(ctx, input)),
  /** The user's own message's text. */
  edit: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, messageId: ZSnowflakeSchema, body: ZEditMessageBodySchema.pick({ content: true }) }))
    .mutation(({ ctx, input }) => editOwnMessage(ctx, { ...input, files: [] })),
  pin: protectedProcedure.input(ZMessageInputSchema).mutation(({ ctx, input }) => pinMessage(ctx, input)),
  unpin: protectedProcedure.input(ZMessageInputSchema).mutation(({ ctx, input }) => unpinMessage(ctx, input)),
  /** `emoji` as the reaction routes take it: the character, or `name:id` for a custom emoji. */
  react: protectedProcedure.input(ZReactionInputSchema).mutation(({ ctx, input }) => addOwnReaction(ctx, input)),
  unreact: protectedProcedure.input(ZReactionInputSchema).mutation(({ ctx, input }) => removeOwnReaction(ctx, input)),
  /** The user's own message, or anyone's with MANAGE_MESSAGES (audited then, with the reason). */
  delete: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, messageId: ZSnowflakeSchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => deleteChannelMessage(withAuditReason(ctx, input.reason), input)),
  /** Publishes a message of an announcement channel to the channels following it. */
  crosspost: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, messageId: ZSnowflakeSchema }))
    .mutation(({ ctx, input }) => crosspostMessage(ctx, input)),
});
