import { z } from "zod";
import { noContent, ok, route } from "~/server/rest/route.ts";
import { ZBulkDeleteBodySchema, ZCreateMessageBodySchema, ZEditMessageBodySchema, ZListMessagesQuerySchema, ZListPinsQuerySchema } from "./message.schema.ts";
import { listPinnedMessages, listPins, pinMessage, unpinMessage } from "./message-pins.service.ts";
import { bulkDeleteMessages } from "./message-bulk-delete.service.ts";
import { deleteChannelMessage, editOwnMessage, getMessage, listMessages, sendMessage } from "./message.service.ts";
import { checkCrosspost, crosspostMessage } from "./crosspost.service.ts";
import { readMessageRequest } from "./message-validation.ts";
import { triggerTyping } from "./typing.service.ts";

// JSON or multipart: readMessageRequest parses either with the message schema.
const ZRawBodySchema = z.unknown();

export const messageRoutes = [
  route({
    method: "GET",
    path: "/channels/:channelId/messages",
    auth: "bot",
    query: ZListMessagesQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await listMessages(ctx, { channelId: params.channelId, query })),
  }),
  route({
    method: "POST",
    path: "/channels/:channelId/messages",
    auth: "bot",
    form: "or-json",
    body: ZRawBodySchema,
    handler: async ({ ctx, params, body }) => {
      const request = readMessageRequest(ZCreateMessageBodySchema, body);
      return ok(await sendMessage(ctx, { channelId: params.channelId, ...request }));
    },
  }),
  route({
    method: "GET",
    path: "/channels/:channelId/messages/:messageId",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await getMessage(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/channels/:channelId/messages/:messageId",
    auth: "bot",
    form: "or-json",
    body: ZRawBodySchema,
    handler: async ({ ctx, params, body }) => {
      const request = readMessageRequest(ZEditMessageBodySchema, body);
      return ok(await editOwnMessage(ctx, { ...params, ...request }));
    },
  }),
  route({
    method: "POST",
    path: "/channels/:channelId/messages/:messageId/crosspost",
    auth: "bot",
    bucket: "crosspost",
    guard: async ({ ctx, params }) => ({ crosspost: (await checkCrosspost(ctx, params)).channelId }),
    handler: async ({ ctx, params }) => ok(await crosspostMessage(ctx, params)),
  }),
  route({
    method: "DELETE",
    path: "/channels/:channelId/messages/:messageId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await deleteChannelMessage(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/channels/:channelId/typing",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await triggerTyping(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/channels/:channelId/messages/bulk-delete",
    auth: "bot",
    body: ZBulkDeleteBodySchema,
    handler: async ({ ctx, params, body }) => {
      await bulkDeleteMessages(ctx, { channelId: params.channelId, body });
      return noContent();
    },
  }),
  route({
    method: "GET",
    path: "/channels/:channelId/messages/pins",
    auth: "bot",
    query: ZListPinsQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await listPins(ctx, { channelId: params.channelId, query })),
  }),
  route({
    method: "GET",
    path: "/channels/:channelId/pins",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await listPinnedMessages(ctx, params)),
  }),
  // Pin and unpin, on the current path and the older one client libraries still call.
  ...(["/channels/:channelId/messages/pins/:messageId", "/channels/:channelId/pins/:messageId"] as const).flatMap((path) => [
    route({
      method: "PUT",
      path,
      auth: "bot",
      handler: async ({ ctx, params }) => {
        await pinMessage(ctx, params);
        return noContent();
      },
    }),
    route({
      method: "DELETE",
      path,
      auth: "bot",
      handler: async ({ ctx, params }) => {
        await unpinMessage(ctx, params);
        return noContent();
      },
    }),
  ]),
];
