import { noContent, ok, route } from "~/server/rest/route.ts";
import { ZChannelCreateBodySchema, ZChannelModifyBodySchema, ZChannelPositionsBodySchema } from "./channel.schema.ts";
import { createGuildChannel, deleteChannel, getChannel, listGuildChannels, modifyChannel, modifyGuildChannelPositions } from "./channel.service.ts";

export const channelRoutes = [
  route({
    method: "GET",
    path: "/guilds/:guildId/channels",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await listGuildChannels(ctx, params)),
  }),
  route({
    method: "POST",
    path: "/guilds/:guildId/channels",
    auth: "bot",
    body: ZChannelCreateBodySchema,
    handler: async ({ ctx, params, body }) => ok(await createGuildChannel(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/channels",
    auth: "bot",
    body: ZChannelPositionsBodySchema,
    handler: async ({ ctx, params, body }) => {
      await modifyGuildChannelPositions(ctx, { guildId: params.guildId, positions: body });
      return noContent();
    },
  }),
  route({
    method: "GET",
    path: "/channels/:channelId",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await getChannel(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/channels/:channelId",
    auth: "bot",
    body: ZChannelModifyBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await modifyChannel(ctx, { channelId: params.channelId, body })),
  }),
  route({
    method: "DELETE",
    path: "/channels/:channelId",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await deleteChannel(ctx, params)),
  }),
];
