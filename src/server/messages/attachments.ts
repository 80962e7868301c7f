import { AttachmentFlags } from "discord-api-types/v10";
import type { Attachment, Prisma } from "~/generated/prisma/client.ts";
import { publicUrl } from "~/env.ts";
import type { Tx } from "~/server/db/client.ts";
import type { Change } from "~/server/events/change.ts";
import { removeStoredFiles } from "~/server/images/file-removal.ts";
import { imageDimensions } from "~/server/images/image-dimensions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import type { NewAttachment } from "./message-validation.ts";

/** An attachment ready to store: its id, stored path and what was measured of it. */
export type PreparedAttachment = NewAttachment & { id: string; contentType: string; width: number | null; height: number | null };

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
// For parts sent without a type: the common kinds by extension.
const TYPES_BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  txt: "text/plain; charset=utf-8",
  json: "application/json",
  pdf: "application/pdf",
  mp4: "video/mp4",
  mp3: "audio/mpeg",
  zip: "application/zip",
};

/** The file store's path of an attachment, also its CDN path under /cdn/. */
function attachmentPath(channelId: string, attachmentId: string, filename: string): string {
  return `attachments/${channelId}/${attachmentId}/${filename}`;
}

function contentTypeOf(attachment: NewAttachment): string {
  const declared = attachment.file.contentType.trim().toLowerCase();
  if (declared && declared !== "application/octet-stream") return declared;
  const extension = attachment.filename.split(".").pop()?.toLowerCase() ?? "";
  return TYPES_BY_EXTENSION[extension] ?? "application/octet-stream";
}

/** Gives each new attachment an id, a content type and, for images, its dimensions. */
export function prepareAttachments(attachments: readonly NewAttachment[]): PreparedAttachment[] {
  return attachments.map((attachment) => {
    const contentType = contentTypeOf(attachment);
    const size = IMAGE_TYPES.has(contentType.split(";")[0]!) ? imageDimensions(attachment.file.data) : null;
    return { ...attachment, id: newId(), contentType, width: size?.width ?? null, height: size?.height ?? null };
  });
}

/** Stores the files and their Attachment rows for a message, in the caller's transaction; answers the rows. */
export async function writeAttachments(
  tx: Tx,
  input: { messageId: string; channelId: string; attachments: readonly PreparedAttachment[]; firstPosition?: number },
): Promise<Attachment[]> {
  const first = input.firstPosition ?? 0;
  const rows: Attachment[] = [];
  for (const [i, attachment] of input.attachments.entries()) {
    const path = attachmentPath(input.channelId, attachment.id, attachment.filename);
    await tx.image.create({ data: { path, contentType: attachment.contentType, data: new Uint8Array(attachment.file.data) } });
    const row = await tx.attachment.create({
      data: {
        id: attachment.id,
        messageId: input.messageId,
        position: first + i,
        filename: attachment.filename,
        title: attachment.title,
        description: attachment.description,
        contentType: attachment.contentType,
        size: attachment.file.data.byteLength,
        width: attachment.width,
        height: attachment.height,
        flags: attachment.isSpoiler ? AttachmentFlags.IsSpoiler : 0,
        path,
      },
    });
    rows.push(row);
  }
  return rows;
}

/** Attachments' files go with the caller's change (their rows go with their message). */
export async function removeAttachmentFiles(change: Change, attachments: readonly Pick<Attachment, "path">[]): Promise<void> {
  await removeStoredFiles(
    change,
    attachments.map((a) => a.path),
  );
}

/** The files of the messages matching `where` (a channel's, a guild's), before they are deleted. */
export async function attachmentPathsOf(tx: Tx, where: Prisma.MessageWhereInput): Promise<string[]> {
  return (await tx.attachment.findMany({ where: { message: where }, select: { path: true } })).map((a) => a.path);
}

export type AttachmentObject = {
  id: string;
  filename: string;
  title?: string;
  description?: string;
  content_type?: string;
  size: number;
  url: string;
  proxy_url: string;
  width?: number;
  height?: number;
  flags?: number;
};

export function toAttachmentObject(row: Attachment): AttachmentObject {
  const url = publicUrl(`/cdn/${row.path}`);
  return {
    id: row.id,
    filename: row.filename,
    ...(row.title !== null && { title: row.title }),
    ...(row.description !== null && { description: row.description }),
    ...(row.contentType !== null && { content_type: row.contentType }),
    size: row.size,
    url,
    proxy_url: url,
    ...(row.width !== null && row.height !== null && { width: row.width, height: row.height }),
    ...(row.flags !== 0 && { flags: row.flags }),
  };
}
