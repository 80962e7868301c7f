import { z } from "zod";
import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { ZRoleParamsSchema } from "./role.schema.ts";
import { listRolesForDashboard, moveRole } from "./role-dashboard.service.ts";
import { createRole, deleteRole, listRoles, modifyRole } from "./role.service.ts";

const ZRoleIdSchema = ZGuildIdInputSchema.extend({ roleId: ZSnowflakeSchema });

export const roleRouter = createTRPCRouter({
  list: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listRoles(ctx, input)),
  /** The roles page: each role with what the viewer may do to it, and why not. */
  rows: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listRolesForDashboard(ctx, input)),
  create: protectedProcedure.input(ZGuildIdInputSchema.extend({ body: ZRoleParamsSchema })).mutation(({ ctx, input }) => createRole(ctx, input)),
  modify: protectedProcedure.input(ZRoleIdSchema.extend({ body: ZRoleParamsSchema })).mutation(({ ctx, input }) => modifyRole(ctx, input)),
  delete: protectedProcedure.input(ZRoleIdSchema).mutation(({ ctx, input }) => deleteRole(ctx, input)),
  move: protectedProcedure
    .input(z.union([ZRoleIdSchema.extend({ direction: z.enum(["up", "down"]) }), ZRoleIdSchema.extend({ toRoleId: ZSnowflakeSchema })]))
    .mutation(({ ctx, input }) => moveRole(ctx, input)),
});
