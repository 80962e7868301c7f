import { z } from "zod";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflake } from "~/server/validation/fields.ts";
import { ZRoleParamsSchema, ZRolePositionsBodySchema } from "./role.schema.ts";
import { createRole, deleteRole, listRoles, modifyRole, modifyRolePositions } from "./role.service.ts";

const ZGuildId = z.object({ guildId: ZSnowflake });
const ZRoleId = ZGuildId.extend({ roleId: ZSnowflake });

export const roleRouter = createTRPCRouter({
  list: protectedProcedure.input(ZGuildId).query(({ ctx, input }) => listRoles(ctx, input)),
  create: protectedProcedure.input(ZGuildId.extend({ body: ZRoleParamsSchema })).mutation(({ ctx, input }) => createRole(ctx, input)),
  modify: protectedProcedure.input(ZRoleId.extend({ body: ZRoleParamsSchema })).mutation(({ ctx, input }) => modifyRole(ctx, input)),
  delete: protectedProcedure.input(ZRoleId).mutation(({ ctx, input }) => deleteRole(ctx, input)),
  reorder: protectedProcedure.input(ZGuildId.extend({ positions: ZRolePositionsBodySchema })).mutation(({ ctx, input }) => modifyRolePositions(ctx, input)),
});
