import { z } from "zod";
import { noContent, ok, route } from "~/server/rest/route.ts";
import { ZCreateMessageBody, ZEditMessageBody, ZListMessagesQuery } from "./message.schema.ts";
import { deleteChannelMessage, editOwnMessage, getMessage, listMessages, sendMessage } from "./message.service.ts";
import { checkCrosspost, crosspostMessage } from "./crosspost.service.ts";
import { readMessageRequest } from "./message-validation.ts";

// JSON or multipart: readMessageRequest parses either with the message schema.
const ZRawBody = z.unknown();

export const messageRoutes = [
  route({
    method: "GET",
    path: "/channels/:channelId/messages",
    auth: "bot",
    query: ZListMessagesQuery,
    handler: async ({ ctx, params, query }) => ok(await listMessages(ctx, { channelId: params.channelId, query })),
  }),
  route({
    method: "POST",
    path: "/channels/:channelId/messages",
    auth: "bot",
    form: "or-json",
    body: ZRawBody,
    handler: async ({ ctx, params, body }) => {
      const request = readMessageRequest(ZCreateMessageBody, body);
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
    body: ZRawBody,
    handler: async ({ ctx, params, body }) => {
      const request = readMessageRequest(ZEditMessageBody, body);
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
];
