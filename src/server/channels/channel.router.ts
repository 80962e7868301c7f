import { z } from "zod";
import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { ZChannelCreateBodySchema, ZChannelModifyBodySchema, ZChannelPositionsBodySchema } from "./channel.schema.ts";
import { listChannelsForDashboard } from "./channel-dashboard.service.ts";
import { channelEffectivePermissions, channelPermissionsEditor } from "./channel-permissions-dashboard.service.ts";
import { modifyGuildChannelPositions } from "./channel-positions.service.ts";
import { getChannel, listGuildChannels } from "./channel-read.service.ts";
import { createGuildChannel } from "./create-channel.service.ts";
import { deleteChannel } from "./delete-channel.service.ts";
import { modifyChannel } from "./modify-channel.service.ts";

const ZChannelIdSchema = z.object({ channelId: ZSnowflakeSchema });

export const channelRouter = createTRPCRouter({
  list: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listGuildChannels(ctx, input)),
  /** The channels page: each channel with what the viewer may do to it, and why not. */
  rows: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listChannelsForDashboard(ctx, input)),
  create: protectedProcedure.input(ZGuildIdInputSchema.extend({ body: ZChannelCreateBodySchema })).mutation(({ ctx, input }) => createGuildChannel(ctx, input)),
  get: protectedProcedure.input(ZChannelIdSchema).query(({ ctx, input }) => getChannel(ctx, input)),
  modify: protectedProcedure.input(ZChannelIdSchema.extend({ body: ZChannelModifyBodySchema })).mutation(({ ctx, input }) => modifyChannel(ctx, input)),
  delete: protectedProcedure.input(ZChannelIdSchema).mutation(({ ctx, input }) => deleteChannel(ctx, input)),
  /** The permissions editor: overwrites with what the viewer may change, and why not (saves go through `modify`, syncs through `reorder`). */
  permissions: protectedProcedure.input(ZChannelIdSchema).query(({ ctx, input }) => channelPermissionsEditor(ctx, input)),
  effectivePermissions: protectedProcedure
    .input(ZChannelIdSchema.extend({ target: z.object({ type: z.enum(["role", "member"]), id: ZSnowflakeSchema }) }))
    .query(({ ctx, input }) => channelEffectivePermissions(ctx, input)),
  reorder: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ positions: ZChannelPositionsBodySchema }))
    .mutation(({ ctx, input }) => modifyGuildChannelPositions(ctx, input)),
});
