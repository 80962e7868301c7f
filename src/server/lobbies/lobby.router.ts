import { z } from "zod";
import { ZApplicationIdInputSchema } from "~/server/applications/application.schema.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import {
  deleteApplicationLobby,
  deleteApplicationLobbyMessage,
  getApplicationLobby,
  listApplicationLobbies,
  listApplicationLobbyMessages,
  removeApplicationLobbyMember,
  setApplicationLobbyModerationMetadata,
} from "./lobby-dashboard.service.ts";
import { ZModerationMetadataBodySchema } from "./lobby.schema.ts";

const ZLobbyInputSchema = ZApplicationIdInputSchema.extend({ lobbyId: ZSnowflakeSchema });
const ZLobbyMessageInputSchema = ZLobbyInputSchema.extend({ messageId: ZSnowflakeSchema });

/** The Lobbies pages of the signed-in user's own applications. */
export const lobbyRouter = createTRPCRouter({
  /** Live lobbies, newest first, LOBBY_LIST_PAGE_SIZE a page. */
  list: protectedProcedure
    .input(ZApplicationIdInputSchema.extend({ page: z.number().int().min(1).max(100_000).default(1) }))
    .query(({ ctx, input }) => listApplicationLobbies(ctx, input)),
  get: protectedProcedure.input(ZLobbyInputSchema).query(({ ctx, input }) => getApplicationLobby(ctx, input)),
  /** A lobby's messages newest first; `cursor` is the nextCursor of the page before. */
  messages: protectedProcedure
    .input(ZLobbyInputSchema.extend({ cursor: ZSnowflakeSchema.nullish() }))
    .query(({ ctx, input }) => listApplicationLobbyMessages(ctx, input)),
  delete: protectedProcedure.input(ZLobbyInputSchema).mutation(({ ctx, input }) => deleteApplicationLobby(ctx, input)),
  removeMember: protectedProcedure
    .input(ZLobbyInputSchema.extend({ userId: ZSnowflakeSchema }))
    .mutation(({ ctx, input }) => removeApplicationLobbyMember(ctx, input)),
  setModerationMetadata: protectedProcedure
    .input(ZLobbyMessageInputSchema.extend({ metadata: ZModerationMetadataBodySchema }))
    .mutation(({ ctx, input }) => setApplicationLobbyModerationMetadata(ctx, input)),
  deleteMessage: protectedProcedure.input(ZLobbyMessageInputSchema).mutation(({ ctx, input }) => deleteApplicationLobbyMessage(ctx, input)),
});
