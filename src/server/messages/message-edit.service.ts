import { AttachmentFlags, GatewayDispatchEvents, MessageFlags } from "discord-api-types/v10";
import { addFieldError, ApiError, type ErrorTree } from "~/server/errors.ts";
import type { Change } from "~/server/events/change.ts";
import { prepareAttachments, removeAttachmentFiles, writeAttachments } from "./attachments.ts";
import { resolveMentions } from "./mentions.ts";
import { MESSAGE_INCLUDE, parseJson, toMessageObjects, type MessageObject, type MessageRow } from "./message.dto.ts";
import { messageEventData } from "./message-event.ts";
import { toStoredEmbeds } from "./message-create.service.ts";
import type { TEditMessageBody } from "./message.schema.ts";
import { checkComponents, checkV2Only, newAttachments, type UploadedFile } from "./message-validation.ts";
import { toStoredComponents } from "./stored-components.ts";

export type EditMessageInput = {
  message: MessageRow;
  body: TEditMessageBody;
  /** Files sent with the edit: appended, paired with `attachments` entries by their files[n] index. */
  files?: readonly UploadedFile[];
  /** MENTION_EVERYONE in the channel; webhooks may always. */
  canMentionEveryone: boolean;
};

/**
 * The attachments an edit keeps and adds. Without `attachments` every stored one stays;
 * with it (v10, spec 9) only those it lists stay, with their description and spoiler as
 * it sets them. Entries naming neither a stored attachment nor an uploaded file are 50035.
 */
function splitAttachments(message: MessageRow, body: TEditMessageBody, files: readonly UploadedFile[]) {
  const requests = body.attachments;
  if (requests === undefined || requests === null) return { kept: message.attachments, updates: [], removed: [], added: newAttachments(files, []) };
  const stored = new Map(message.attachments.map((a) => [a.id, a]));
  const fileIndexes = new Set(files.map((f) => String(f.index)));
  const tree: ErrorTree = {};
  requests.forEach((request, i) => {
    if (!stored.has(request.id) && !fileIndexes.has(request.id)) {
      addFieldError(tree, ["attachments", i, "id"], { code: "ATTACHMENT_NOT_FOUND", message: "Attachment not found." });
    }
  });
  if (Object.keys(tree).length > 0) throw new ApiError("INVALID_FORM_BODY", { errors: tree });
  const keptRequests = requests.filter((r) => stored.has(r.id));
  const kept = keptRequests.map((r) => stored.get(r.id)!);
  const keptIds = new Set(kept.map((a) => a.id));
  return {
    kept,
    updates: keptRequests,
    removed: message.attachments.filter((a) => !keptIds.has(a.id)),
    added: newAttachments(
      files,
      requests.filter((r) => !stored.has(r.id)),
    ),
  };
}

/**
 * Edits a message in the caller's change, by the platform's rules (spec 4.8): content
 * rebuilds the mentions, with default allowances unless the edit sends allowed_mentions;
 * SUPPRESS_EMBEDS may be set and unset; IS_COMPONENTS_V2 only set, and only once content,
 * embeds, files and poll are gone (400); the attachment rules of splitAttachments; what is
 * left must not be empty (50006). Sets edited_timestamp and fires Message Update.
 */
export async function editMessage(change: Change, input: EditMessageInput): Promise<MessageObject> {
  const { tx, emit } = change;
  const { message, body } = input;
  const { kept, updates, removed, added } = splitAttachments(message, body, input.files ?? []);

  const content = body.content === undefined ? message.content : (body.content ?? "");
  const embeds = body.embeds === undefined ? parseJson<unknown[]>(message.embeds, []) : toStoredEmbeds(body.embeds);
  const components = body.components === undefined ? parseJson<unknown[]>(message.components, []) : toStoredComponents(body.components ?? []);
  let flags = message.flags;
  if (body.flags !== undefined && body.flags !== null) {
    flags = (flags & ~MessageFlags.SuppressEmbeds) | (body.flags & MessageFlags.SuppressEmbeds);
    // IS_COMPONENTS_V2 can be set, never taken back.
    flags |= body.flags & MessageFlags.IsComponentsV2;
  }
  const isV2 = (flags & MessageFlags.IsComponentsV2) !== 0;
  if (isV2) checkV2Only({ content, embeds, poll: message.poll, files: kept.length + added.length > 0 });
  if (body.components) checkComponents(body.components, isV2);
  if (!content && embeds.length === 0 && components.length === 0 && kept.length + added.length === 0 && !message.poll) throw new ApiError("EMPTY_MESSAGE");

  const mentions =
    body.content === undefined
      ? null
      : await resolveMentions(tx, { guildId: message.guildId, content, allowedMentions: body.allowed_mentions, canMentionEveryone: input.canMentionEveryone });
  await tx.message.update({
    where: { id: message.id },
    data: {
      content,
      embeds: JSON.stringify(embeds),
      components: JSON.stringify(components),
      flags,
      editedAt: new Date(),
      ...(mentions && { mentions: JSON.stringify(mentions.userIds), mentionRoles: JSON.stringify(mentions.roleIds), mentionEveryone: mentions.everyone }),
    },
  });
  for (const update of updates) {
    const row = message.attachments.find((a) => a.id === update.id)!;
    const spoiler =
      update.is_spoiler === undefined || update.is_spoiler === null
        ? row.flags
        : update.is_spoiler
          ? row.flags | AttachmentFlags.IsSpoiler
          : row.flags & ~AttachmentFlags.IsSpoiler;
    await tx.attachment.update({
      where: { id: row.id },
      data: {
        flags: spoiler,
        ...(update.description !== undefined && { description: update.description }),
        ...(update.title !== undefined && { title: update.title }),
      },
    });
  }
  if (removed.length > 0) {
    await tx.attachment.deleteMany({ where: { id: { in: removed.map((a) => a.id) } } });
    await removeAttachmentFiles(change, removed);
  }
  const lastPosition = message.attachments.reduce((max, a) => Math.max(max, a.position), -1);
  await writeAttachments(tx, { messageId: message.id, channelId: message.channelId, attachments: prepareAttachments(added), firstPosition: lastPosition + 1 });

  const row = await tx.message.findUniqueOrThrow({ where: { id: message.id }, include: MESSAGE_INCLUDE });
  const [object] = await toMessageObjects(tx, [row]);
  await emit(GatewayDispatchEvents.MessageUpdate, await messageEventData(change.sql, object!, message.guildId));
  return object!;
}

/** Deletes a message and its files in the caller's change; fires Message Delete. */
export async function deleteMessage(change: Change, message: MessageRow): Promise<void> {
  await change.tx.message.delete({ where: { id: message.id } });
  await removeAttachmentFiles(change, message.attachments);
  await change.emit(GatewayDispatchEvents.MessageDelete, {
    id: message.id,
    channel_id: message.channelId,
    ...(message.guildId && { guild_id: message.guildId }),
  });
}
