import type { Db } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { deleteMessage, editMessage } from "~/server/messages/message-edit.service.ts";
import { MESSAGE_INCLUDE, toMessageObjects, type MessageObject, type MessageRow } from "~/server/messages/message.dto.ts";
import type { UploadedFile } from "~/server/messages/message-validation.ts";
import { allowedComponents } from "./webhook-execute.service.ts";
import type { TWebhookMessageEditBody, TWebhookMessageEditQuery, TWebhookMessageQuery } from "./webhook-message.schema.ts";
import { findWebhookByToken } from "./webhook.service.ts";

type MessagePath = { webhookId: string; token: string; messageId: string };

/**
 * A message this webhook posted, in its channel or in query.thread_id's thread: anything
 * else (another author, another thread, a thread message asked without thread_id) is 10008.
 * A wrong token answers as the token forms do (10015, 401/50027).
 */
async function findWebhookMessage(db: Db, path: MessagePath, query: TWebhookMessageQuery) {
  const webhook = await findWebhookByToken(db, path);
  const row = /^\d{1,20}$/.test(path.messageId) ? await db.message.findUnique({ where: { id: path.messageId }, include: MESSAGE_INCLUDE }) : null;
  const channelId = query.thread_id ?? webhook.channelId;
  if (row?.webhookId !== webhook.id || row.channelId !== channelId) throw new ApiError("UNKNOWN_MESSAGE");
  return { webhook, message: row };
}

async function present(db: Db, row: MessageRow): Promise<MessageObject> {
  const [object] = await toMessageObjects(db, [row]);
  return object!;
}

/** GET /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}. */
export async function getWebhookMessage(db: Db, input: MessagePath & { query: TWebhookMessageQuery }): Promise<MessageObject> {
  const { message } = await findWebhookMessage(db, input, input.query);
  return present(db, message);
}

/**
 * PATCH /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}: the shared editMessage
 * rules (spec 4.8), with components as Execute Webhook allows them (with_components) and a
 * poll refused, since only deferred interaction responses may set one.
 */
export async function editWebhookMessage(
  db: Db,
  input: MessagePath & { query: TWebhookMessageEditQuery; body: TWebhookMessageEditBody; files: UploadedFile[] },
): Promise<MessageObject> {
  const { webhook, message } = await findWebhookMessage(db, input, input.query);
  const { poll, ...edit } = input.body;
  if (poll !== undefined && poll !== null) {
    throw invalidField(["poll"], "POLL_EDIT_NOT_ALLOWED", "Polls can only be edited in a deferred interaction response.");
  }
  const components = allowedComponents(webhook, edit, input.query.with_components ?? false);
  // Without with_components a webhook no application owns keeps its components as they are.
  const body = { ...edit, components: components === null && edit.components ? undefined : components };
  return runChange({ db, actor: null }, (change) => editMessage(change, { message, body, files: input.files, canMentionEveryone: true }));
}

/** DELETE /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}: Message Delete. */
export async function deleteWebhookMessage(db: Db, input: MessagePath & { query: TWebhookMessageQuery }): Promise<void> {
  const { message } = await findWebhookMessage(db, input, input.query);
  await runChange({ db, actor: null }, (change) => deleteMessage(change, message));
}
