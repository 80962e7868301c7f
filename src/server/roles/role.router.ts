import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflake } from "~/server/validation/fields.ts";
import { ZRoleParamsSchema, ZRolePositionsBodySchema } from "./role.schema.ts";
import { createRole, deleteRole, listRoles, modifyRole, modifyRolePositions } from "./role.service.ts";

const ZRoleId = ZGuildIdInputSchema.extend({ roleId: ZSnowflake });

export const roleRouter = createTRPCRouter({
  list: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listRoles(ctx, input)),
  create: protectedProcedure.input(ZGuildIdInputSchema.extend({ body: ZRoleParamsSchema })).mutation(({ ctx, input }) => createRole(ctx, input)),
  modify: protectedProcedure.input(ZRoleId.extend({ body: ZRoleParamsSchema })).mutation(({ ctx, input }) => modifyRole(ctx, input)),
  delete: protectedProcedure.input(ZRoleId).mutation(({ ctx, input }) => deleteRole(ctx, input)),
  reorder: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ positions: ZRolePositionsBodySchema }))
    .mutation(({ ctx, input }) => modifyRolePositions(ctx, input)),
});
