import { ZApplicationIdInputSchema } from "~/server/applications/application.schema.ts";
import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { commandPermissionsEditor, listGuildCommands, listOwnApplicationCommands } from "./command-dashboard.service.ts";
import { ZCommandPermissionsBodySchema } from "./command-permissions.schema.ts";
import { setCommandPermissions } from "./command-permissions.service.ts";

/** One list of a guild's permissions: a command's, or the app-level entry's when `commandId` is the application's id. */
const ZCommandPermissionsTargetSchema = ZGuildIdInputSchema.extend({ applicationId: ZSnowflakeSchema, commandId: ZSnowflakeSchema });

export const commandRouter = createTRPCRouter({
  /** An application's page: its global and guild commands, for its owner. */
  application: protectedProcedure.input(ZApplicationIdInputSchema).query(({ ctx, input }) => listOwnApplicationCommands(ctx, input)),
  /** A guild's Integrations page: each installed application's commands with their permissions and the viewer's reasons. */
  guild: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listGuildCommands(ctx, input)),
  permissionsEditor: protectedProcedure.input(ZCommandPermissionsTargetSchema).query(({ ctx, input }) => commandPermissionsEditor(ctx, input)),
  /** The same replacement as PUT …/commands/{command}/permissions, by the signed-in user. */
  setPermissions: protectedProcedure
    .input(ZCommandPermissionsTargetSchema.extend(ZCommandPermissionsBodySchema.shape))
    .mutation(({ ctx, input }) => setCommandPermissions(ctx, input)),
});
