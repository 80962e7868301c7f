import { z } from "zod";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { listCurrentUserGuilds } from "~/server/users/user.service.ts";
import { ZSnowflake } from "~/server/validation/fields.ts";
import { ZGuildCreateBodySchema, ZGuildModifyBodySchema } from "./guild.schema.ts";
import { createGuild, deleteGuild, getGuild, getOwnGuildPermissions, modifyGuild } from "./guild.service.ts";

const ZGuildId = z.object({ guildId: ZSnowflake });

export const guildRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listCurrentUserGuilds(ctx, { with_counts: true })),
  get: protectedProcedure.input(ZGuildId).query(({ ctx, input }) => getGuild(ctx, { guildId: input.guildId, withCounts: true })),
  permissions: protectedProcedure.input(ZGuildId).query(({ ctx, input }) => getOwnGuildPermissions(ctx, input)),
  create: protectedProcedure.input(ZGuildCreateBodySchema).mutation(({ ctx, input }) => createGuild(ctx, input)),
  modify: protectedProcedure.input(ZGuildId.extend({ body: ZGuildModifyBodySchema })).mutation(({ ctx, input }) => modifyGuild(ctx, input)),
  delete: protectedProcedure.input(ZGuildId).mutation(({ ctx, input }) => deleteGuild(ctx, input)),
});
