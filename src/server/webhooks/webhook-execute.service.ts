import { ButtonStyle, ComponentType, GatewayDispatchEvents } from "discord-api-types/v10";
import type { Channel, Webhook } from "~/generated/prisma/client.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, fromZodError, invalidField } from "~/server/errors.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import type { TComponent } from "~/server/messages/component.schema.ts";
import { createMessage } from "~/server/messages/message-create.service.ts";
import type { MessageObject } from "~/server/messages/message.dto.ts";
import { checkNewMessage, newAttachments, type UploadedFile } from "~/server/messages/message-validation.ts";
import { writeForumPost } from "~/server/threads/forum-post.service.ts";
import { checkNewPostTags } from "~/server/threads/forum-tags.ts";
import { isForumType, isThreadType, THREAD_INCLUDE, toThreadObject } from "~/server/threads/thread.dto.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ZWebhookExecuteBodySchema, type TWebhookExecuteBody, type TWebhookExecuteQuery, type TWebhookTestMessageInput } from "./webhook-execute.schema.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { findWebhookByToken, loadManagedWebhook } from "./webhook.service.ts";

/** Components a webhook no application owns may post with with_components: nothing that calls an application back. */
const PASSIVE_BUTTON_STYLES: readonly number[] = [ButtonStyle.Link];
const INTERACTIVE_TYPES: readonly number[] = [
  ComponentType.StringSelect,
  ComponentType.TextInput,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
];

export type ExecuteInput = {
  webhookId: string;
  token: string;
  query: TWebhookExecuteQuery;
  body: TWebhookExecuteBody;
  files: UploadedFile[];
};

/** Whether a component tree holds anything interactive (buttons with a custom id, selects, inputs). */
function hasInteractive(components: readonly unknown[]): boolean {
  return components.some((raw) => {
    const component = raw as { type: number; style?: number; components?: unknown[]; accessory?: unknown };
    if (INTERACTIVE_TYPES.includes(component.type)) return true;
    if (component.type === ComponentType.Button && !PASSIVE_BUTTON_STYLES.includes(component.style ?? 0)) return true;
    return hasInteractive([...(component.components ?? []), ...(component.accessory ? [component.accessory] : [])]);
  });
}

/**
 * with_components (spec 4.8): a webhook its application owns may post every component; any
 * other only with with_components=true and only non-interactive ones, else they are ignored.
 */
export function allowedComponents(webhook: Webhook, body: Pick<TWebhookExecuteBody, "components">, withComponents: boolean): TComponent[] | null | undefined {
  if (webhook.applicationId || !body.components) return body.components;
  if (!withComponents) return null;
  if (hasInteractive(body.components)) {
    throw invalidField(["components"], "COMPONENT_INTERACTIVE_NOT_ALLOWED", "Only non-interactive components can be sent by webhooks no application owns.");
  }
  return body.components;
}

/** Where a message goes: a channel or one of its threads, or a new post named by thread_name. */
type Destination =
  { kind: "channel"; parent: Channel; target: Channel } | { kind: "post"; parent: Channel; guildId: string; name: string; appliedTags: string[] };

/**
 * Where the message goes: the webhook's channel, or thread_id's thread of that channel (10003
 * otherwise). Forum and media channels need a thread (220001): thread_id's, or a new post named
 * by thread_name (220003 in other channels; 220002 with both) with applied_tags. applied_tags
 * is read only when a post is made, and ignored otherwise.
 */
async function destinationOf(db: Db, webhook: Webhook, query: TWebhookExecuteQuery, body: TWebhookExecuteBody): Promise<Destination> {
  // The guild's cached channels: every execution reads its webhook's channel.
  const state = webhook.guildId && webhook.channelId ? await stateCache(db).guild(webhook.guildId) : null;
  const parent = state && webhook.channelId ? (await state.channels()).byId.get(webhook.channelId) : undefined;
  if (!parent?.guildId) throw new ApiError("UNKNOWN_CHANNEL");
  const isForum = isForumType(parent.type);
  if (query.thread_id) {
    if (body.thread_name) throw new ApiError("WEBHOOK_THREAD_NAME_AND_ID");
    const thread = await db.channel.findUnique({ where: { id: query.thread_id } });
    if (!thread || !isThreadType(thread.type) || thread.parentId !== parent.id) throw new ApiError("UNKNOWN_CHANNEL");
    // A locked thread stays archived: only moderators reopen it.
    if (thread.threadArchived && thread.threadLocked) throw new ApiError("THREAD_ARCHIVED");
    return { kind: "channel", parent, target: thread };
  }
  if (body.thread_name) {
    if (!isForum) throw new ApiError("WEBHOOK_THREADS_ONLY_IN_FORUMS");
    // Those who made the webhook manage the channel's webhooks; it applies any of the channel's tags, moderated ones too.
    const appliedTags = checkNewPostTags(parent, body.applied_tags, true);
    return { kind: "post", parent, guildId: parent.guildId, name: body.thread_name, appliedTags };
  }
  if (isForum) throw new ApiError("WEBHOOK_FORUM_NEEDS_THREAD");
  return { kind: "channel", parent, target: parent };
}

/** Posting in an archived thread reopens it (spec 4.8), with Thread Update. */
async function unarchive(change: Change, thread: Channel, parentType: number): Promise<void> {
  const { count } = await change.tx.channel.updateMany({
    where: { id: thread.id, threadArchived: true },
    data: { threadArchived: false, threadArchiveTimestamp: new Date() },
  });
  if (count === 0) return;
  const row = await change.tx.channel.findUniqueOrThrow({ where: { id: thread.id }, include: THREAD_INCLUDE });
  await change.emit(GatewayDispatchEvents.ThreadUpdate, toThreadObject(row, parentType));
}

/**
 * POST /webhooks/{webhook.id}/{webhook.token} (spec 4.8): the message is checked by the
 * messages module and posted under the webhook's name and avatar or the overrides. With
 * wait=false the answer does not wait for the message: a message that could not be saved
 * is no error then (the request was valid); with wait=true it is the stored message.
 */
export async function executeWebhook(db: Db, input: ExecuteInput, log: (error: unknown) => void = console.error): Promise<MessageObject | null> {
  const webhook = await findWebhookByToken(db, input);
  const { query } = input;
  const body = { ...input.body, components: allowedComponents(webhook, input.body, query.with_components ?? false) };
  checkNewMessage(body, input.files);
  const files = newAttachments(input.files, body.attachments);
  const destination = await destinationOf(db, webhook, query, body);
  const author = { kind: "webhook", webhook, username: body.username, avatarUrl: body.avatar_url } as const;
  const post = () =>
    runChange({ db, actor: null }, async (change) => {
      if (destination.kind === "post") {
        const { guildId, parent, name, appliedTags } = destination;
        return (await writeForumPost(change, { guildId, parent, name, appliedTags, author, body, files })).message;
      }
      const { parent, target } = destination;
      if (target.threadArchived) await unarchive(change, target, parent.type);
      return createMessage(change, { channel: { id: target.id, type: target.type }, guildId: webhook.guildId, author, body, files });
    });
  if (query.wait) return post();
  try {
    await post();
  } catch (error) {
    log(error);
  }
  return null;
}

/** The dashboard's "send a test message": a manager of the webhook posts through it as a service would, and sees the message. */
export async function sendTestMessage(ctx: ServiceContext, input: TWebhookTestMessageInput): Promise<MessageObject> {
  const row = await loadManagedWebhook(ctx, input.webhookId);
  if (!row.token) throw new ApiError("INVALID_WEBHOOK_TOKEN");
  const embed = input.embed?.title || input.embed?.description ? [input.embed] : [];
  const request = { content: input.content || null, embeds: embed };
  const parsed = ZWebhookExecuteBodySchema.safeParse(request);
  if (!parsed.success) throw fromZodError(parsed.error, request);
  const body = parsed.data;
  const message = await executeWebhook(ctx.db, { webhookId: row.id, token: row.token, query: { wait: true }, body, files: [] });
  return message!;
}
