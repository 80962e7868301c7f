import { z } from "zod";
import { readMessageRequest } from "~/server/messages/message-validation.ts";
import { noContent, ok, route, type ResourceKeys, type RestContext } from "~/server/rest/route.ts";
import { ZWebhookExecuteBodySchema, ZWebhookExecuteQuerySchema } from "./webhook-execute.schema.ts";
import { executeWebhook } from "./webhook-execute.service.ts";
import { ZWebhookMessageEditBodySchema, ZWebhookMessageEditQuerySchema, ZWebhookMessageQuerySchema } from "./webhook-message.schema.ts";
import { deleteWebhookMessage, editWebhookMessage, getWebhookMessage } from "./webhook-message.service.ts";
import { executeSlackWebhook, readSlackPayload, ZSlackQuerySchema } from "./webhook-slack.ts";
import { executeGithubWebhook, ZGithubQuerySchema } from "./webhook-github.ts";
import { ZGithubPayloadSchema } from "./github/github-payload.ts";
import { followChannel } from "./channel-follow.service.ts";
import { ZChannelFollowBodySchema, ZWebhookCreateBodySchema, ZWebhookModifyBodySchema, ZWebhookTokenModifyBodySchema } from "./webhook.schema.ts";
import {
  createWebhook,
  deleteWebhook,
  deleteWebhookWithToken,
  findWebhookByToken,
  getWebhook,
  getWebhookWithToken,
  listChannelWebhooks,
  listGuildWebhooks,
  modifyWebhook,
  modifyWebhookWithToken,
} from "./webhook.service.ts";

type TokenPath = { ctx: RestContext; params: { webhookId: string; token: string } };

/** The token is checked before a body is read. */
const tokenGuard = async ({ ctx, params }: TokenPath): Promise<ResourceKeys> => {
  await findWebhookByToken(ctx.db, params);
  return {};
};

/** An execution, once its token is right, spends the webhook's bucket and its channel's, whichever of its webhooks posts. */
const executionGuard = async ({ ctx, params }: TokenPath): Promise<ResourceKeys> => {
  const webhook = await findWebhookByToken(ctx.db, params);
  return { webhook: webhook.id, webhookChannel: webhook.channelId };
};

export const webhookRoutes = [
  route({
    method: "POST",
    path: "/channels/:channelId/webhooks",
    auth: "bot",
    body: ZWebhookCreateBodySchema,
    handler: async ({ ctx, params, body }) => ok(await createWebhook(ctx, { channelId: params.channelId, body })),
  }),
  route({
    method: "POST",
    path: "/channels/:channelId/followers",
    auth: "bot",
    body: ZChannelFollowBodySchema,
    handler: async ({ ctx, params, body }) => ok(await followChannel(ctx, { channelId: params.channelId, body })),
  }),
  route({
    method: "GET",
    path: "/channels/:channelId/webhooks",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await listChannelWebhooks(ctx, params)),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/webhooks",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await listGuildWebhooks(ctx, params)),
  }),
  route({
    method: "GET",
    path: "/webhooks/:webhookId",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await getWebhook(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/webhooks/:webhookId",
    auth: "bot",
    body: ZWebhookModifyBodySchema,
    handler: async ({ ctx, params, body }) => ok(await modifyWebhook(ctx, { webhookId: params.webhookId, body })),
  }),
  route({
    method: "DELETE",
    path: "/webhooks/:webhookId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await deleteWebhook(ctx, params);
      return noContent();
    },
  }),
  // The token in the path is the credential (spec 7): these take no Authorization header.
  route({
    method: "GET",
    path: "/webhooks/:webhookId/:token",
    auth: "none",
    handler: async ({ ctx, params }) => ok(await getWebhookWithToken(ctx.db, params)),
  }),
  route({
    method: "PATCH",
    path: "/webhooks/:webhookId/:token",
    auth: "none",
    guard: tokenGuard,
    body: ZWebhookTokenModifyBodySchema,
    handler: async ({ ctx, params, body }) => ok(await modifyWebhookWithToken(ctx, { ...params, body })),
  }),
  route({
    method: "DELETE",
    path: "/webhooks/:webhookId/:token",
    auth: "none",
    handler: async ({ ctx, params }) => {
      await deleteWebhookWithToken(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/webhooks/:webhookId/:token",
    auth: "none",
    bucket: "webhook",
    guard: executionGuard,
    query: ZWebhookExecuteQuerySchema,
    // JSON or multipart: readMessageRequest parses either with the execute schema.
    form: "or-json",
    body: z.unknown(),
    handler: async ({ ctx, params, query, body }) => {
      const message = await executeWebhook(ctx.db, { ...params, query, ...readMessageRequest(ZWebhookExecuteBodySchema, body) });
      return message ? ok(message) : noContent();
    },
  }),
  route({
    method: "GET",
    path: "/webhooks/:webhookId/:token/messages/:messageId",
    auth: "none",
    query: ZWebhookMessageQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await getWebhookMessage(ctx.db, { ...params, query })),
  }),
  route({
    method: "PATCH",
    path: "/webhooks/:webhookId/:token/messages/:messageId",
    auth: "none",
    guard: tokenGuard,
    query: ZWebhookMessageEditQuerySchema,
    form: "or-json",
    body: z.unknown(),
    handler: async ({ ctx, params, query, body }) =>
      ok(await editWebhookMessage(ctx.db, { ...params, query, ...readMessageRequest(ZWebhookMessageEditBodySchema, body) })),
  }),
  route({
    method: "DELETE",
    path: "/webhooks/:webhookId/:token/messages/:messageId",
    auth: "none",
    query: ZWebhookMessageQuerySchema,
    handler: async ({ ctx, params, query }) => {
      await deleteWebhookMessage(ctx.db, { ...params, query });
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/webhooks/:webhookId/:token/slack",
    auth: "none",
    bucket: "webhook",
    guard: executionGuard,
    query: ZSlackQuerySchema,
    // JSON or a form: readSlackPayload reads either.
    form: "or-json",
    body: z.unknown(),
    handler: async ({ ctx, params, query, body }) => {
      await executeSlackWebhook(ctx.db, { ...params, query, payload: readSlackPayload(body) });
      // The chat product's clients expect its plain acknowledgement.
      return ok("ok");
    },
  }),
  route({
    method: "POST",
    path: "/webhooks/:webhookId/:token/github",
    auth: "none",
    bucket: "webhook",
    guard: executionGuard,
    query: ZGithubQuerySchema,
    body: ZGithubPayloadSchema,
    handler: async ({ ctx, params, query, body, header }) => {
      const message = await executeGithubWebhook(ctx.db, { ...params, event: header("x-github-event"), query, payload: body });
      return message ? ok(message) : noContent();
    },
  }),
];
