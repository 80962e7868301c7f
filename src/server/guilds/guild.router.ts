import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { listCurrentUserGuilds } from "~/server/users/user.service.ts";
import { z } from "zod";
import { listSectionDenials } from "./guild-dashboard.service.ts";
import { listOwnerCandidates } from "./guild-ownership.service.ts";
import { ZGuildCreateBodySchema, ZGuildIdInputSchema, ZGuildModifyBodySchema } from "./guild.schema.ts";
import { createGuild, deleteGuild, getGuild, modifyGuild } from "./guild.service.ts";

export const guildRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listCurrentUserGuilds(ctx, { with_counts: true })),
  get: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => getGuild(ctx, { guildId: input.guildId, withCounts: true })),
  /** Why the viewer may not use each guild-wide dashboard section. */
  sectionDenials: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listSectionDenials(ctx, input)),
  create: protectedProcedure.input(ZGuildCreateBodySchema).mutation(({ ctx, input }) => createGuild(ctx, input)),
  modify: protectedProcedure.input(ZGuildIdInputSchema.extend({ body: ZGuildModifyBodySchema })).mutation(({ ctx, input }) => modifyGuild(ctx, input)),
  /** The transfer section: the owner, why the viewer may not transfer, and members to pick from. */
  ownerCandidates: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ query: z.string().max(100) }))
    .query(({ ctx, input }) => listOwnerCandidates(ctx, input)),
  delete: protectedProcedure.input(ZGuildIdInputSchema).mutation(({ ctx, input }) => deleteGuild(ctx, input)),
});
