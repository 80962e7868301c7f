import { z } from "zod";
import { loadDmTarget, readDmChannel } from "~/server/dms/dm.service.ts";
import { parseInput } from "~/server/rest/dispatch.ts";
import { noContent, ok, route } from "~/server/rest/route.ts";
import { isThreadChannel } from "~/server/threads/thread-access.ts";
import { ZThreadModifyBodySchema } from "~/server/threads/thread.schema.ts";
import { deleteThread, getThread, modifyThread } from "~/server/threads/thread.service.ts";
import { ZChannelCreateBodySchema, ZChannelModifyBodySchema, ZChannelPositionsBodySchema, ZOverwriteEditBodySchema } from "./channel.schema.ts";
import { deleteChannelOverwrite, editChannelOverwrite } from "./channel-overwrite.service.ts";
import { modifyGuildChannelPositions } from "./channel-positions.service.ts";
import { getChannel, listGuildChannels } from "./channel-read.service.ts";
import { createGuildChannel } from "./create-channel.service.ts";
import { deleteChannel } from "./delete-channel.service.ts";
import { modifyChannel } from "./modify-channel.service.ts";

export const channelRoutes = [
  route({
    method: "GET",
    path: "/guilds/:guildId/channels",
    auth: "bot",
    open: { to: "member", why: "lists only the channels the member can view" },
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
    handler: async ({ ctx, params }) => {
      const dm = await loadDmTarget(ctx, params.channelId);
      if (dm) return ok(await readDmChannel(ctx.db, dm));
      return ok(await ((await isThreadChannel(ctx, params.channelId)) ? getThread(ctx, params) : getChannel(ctx, params)));
    },
  }),
  route({
    method: "PATCH",
    path: "/channels/:channelId",
    auth: "bot",
    // Threads and other channels take different fields: the body is checked once the kind is known.
    body: z.record(z.string(), z.unknown()).default({}),
    handler: async ({ ctx, params: { channelId }, body }) => {
      return ok(
        await ((await isThreadChannel(ctx, channelId))
          ? modifyThread(ctx, { channelId, body: parseInput(ZThreadModifyBodySchema, body) })
          : modifyChannel(ctx, { channelId, body: parseInput(ZChannelModifyBodySchema, body) })),
      );
    },
  }),
  route({
    method: "DELETE",
    path: "/channels/:channelId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      // Closing a DM: it stays, with its messages, as on the platform.
      const dm = await loadDmTarget(ctx, params.channelId);
      if (dm) return ok(await readDmChannel(ctx.db, dm));
      return ok(await ((await isThreadChannel(ctx, params.channelId)) ? deleteThread(ctx, params) : deleteChannel(ctx, params)));
    },
  }),
  route({
    method: "PUT",
    path: "/channels/:channelId/permissions/:overwriteId",
    auth: "bot",
    body: ZOverwriteEditBodySchema,
    handler: async ({ ctx, params, body }) => {
      await editChannelOverwrite(ctx, { ...params, body });
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: "/channels/:channelId/permissions/:overwriteId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await deleteChannelOverwrite(ctx, params);
      return noContent();
    },
  }),
];
