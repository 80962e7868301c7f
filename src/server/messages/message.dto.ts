import type { APIEmbed, APIMessage, APIMessageReference, APIMessageTopLevelComponent, APIPoll } from "discord-api-types/v10";
import type { Prisma } from "~/generated/prisma/client.ts";
import type { Tx } from "~/server/db/client.ts";
import { toUserObject, type UserObject } from "~/server/users/user.dto.ts";
import { THREAD_INCLUDE, toThreadObject, type ThreadObject } from "~/server/threads/thread.dto.ts";
import { toAttachmentObject, type AttachmentObject } from "./attachments.ts";

export const MESSAGE_INCLUDE = { attachments: { orderBy: { position: "asc" } } } satisfies Prisma.MessageInclude;
export type MessageRow = Prisma.MessageGetPayload<{ include: typeof MESSAGE_INCLUDE }>;

export type MessageReferenceObject = APIMessageReference & { type: number; message_id: string };

/** A forwarded message's copy, taken when it was forwarded. */
export type MessageSnapshot = {
  message: Pick<
    MessageObject,
    "type" | "content" | "mentions" | "mention_roles" | "attachments" | "embeds" | "timestamp" | "edited_timestamp" | "flags" | "components"
  >;
};

/** The stored reference: forwards keep their snapshots beside it. */
type StoredReference = MessageReferenceObject & { message_snapshots?: MessageSnapshot[] };

/** The message fields Guildhall sends (the rest of APIMessage is optional and never sent). */
type SentFields =
  | "id"
  | "type"
  | "content"
  | "channel_id"
  | "author"
  | "attachments"
  | "embeds"
  | "mentions"
  | "mention_roles"
  | "mention_everyone"
  | "pinned"
  | "tts"
  | "timestamp"
  | "edited_timestamp"
  | "flags"
  | "components"
  | "webhook_id"
  | "application_id"
  | "message_reference"
  | "message_snapshots"
  | "poll"
  | "nonce"
  | "reactions";

/** The message object: APIMessage's fields that are sent, with the author, mentions and attachments as Guildhall builds them. */
export type MessageObject = Pick<APIMessage, SentFields> & {
  author: UserObject;
  mentions: UserObject[];
  attachments: AttachmentObject[];
  flags: number;
  components: APIMessageTopLevelComponent[];
  message_reference?: MessageReferenceObject;
  message_snapshots?: MessageSnapshot[];
  thread?: ThreadObject;
};

/** The author object of a webhook's message: the webhook's id with the name and avatar it posted under. */
function webhookAuthor(message: Pick<MessageRow, "webhookId" | "authorName" | "authorAvatarUrl">): UserObject {
  return {
    id: message.webhookId!,
    username: message.authorName ?? "",
    discriminator: "0000",
    global_name: null,
    avatar: avatarHashOf(message.webhookId!, message.authorAvatarUrl),
    bot: true,
    public_flags: 0,
    flags: 0,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
}

const WEBHOOK_AVATAR = /\/cdn\/avatars\/(\d+)\/((?:a_)?[0-9a-f]{32})\.\w+$/;

/** The webhook's own avatar is a hash on the CDN; an avatar_url override has no hash to give. */
export function avatarHashOf(webhookId: string, url: string | null): string | null {
  const match = url ? WEBHOOK_AVATAR.exec(url) : null;
  return match?.[1] === webhookId ? match[2]! : null;
}

/** The author object of a deleted account's messages. */
function deletedUser(id: string): UserObject {
  return toUserObject({ id, username: "Deleted User", globalName: null, avatar: null, bot: false, system: false, flags: 0 });
}

export function parseJson<T>(text: string | null, fallback: T): T {
  return text === null ? fallback : (JSON.parse(text) as T);
}

/** A stored message as the platform's message object; `users` holds its author and mentioned users, `threads` the threads started from messages. */
function toMessageObject(row: MessageRow, users: ReadonlyMap<string, UserObject>, threads: ReadonlyMap<string, ThreadObject>): MessageObject {
  const thread = row.threadId ? threads.get(row.threadId) : undefined;
  const author = row.webhookId ? webhookAuthor(row) : (users.get(row.authorId ?? "") ?? deletedUser(row.authorId ?? "0"));
  const { message_snapshots: snapshots, ...reference } = parseJson<StoredReference | null>(row.reference, null) ?? {};
  const poll = parseJson<APIPoll | null>(row.poll, null);
  return {
    id: row.id,
    type: row.type,
    content: row.content,
    channel_id: row.channelId,
    author,
    attachments: row.attachments.map(toAttachmentObject),
    embeds: parseJson<APIEmbed[]>(row.embeds, []),
    mentions: parseJson<string[]>(row.mentions, []).flatMap((id) => users.get(id) ?? []),
    mention_roles: parseJson<string[]>(row.mentionRoles, []),
    mention_everyone: row.mentionEveryone,
    pinned: row.pinned,
    tts: row.tts,
    timestamp: row.createdAt.toISOString(),
    edited_timestamp: row.editedAt?.toISOString() ?? null,
    flags: row.flags,
    components: parseJson<APIMessageTopLevelComponent[]>(row.components, []),
    ...(row.webhookId && { webhook_id: row.webhookId }),
    ...(row.applicationId && { application_id: row.applicationId }),
    ...(row.reference !== null && { message_reference: reference as MessageReferenceObject }),
    ...(snapshots && { message_snapshots: snapshots }),
    ...(poll !== null && { poll }),
    ...(thread && { thread }),
  };
}

/** The threads started from these messages (as the platform links them, by the message's id), still there. */
async function threadsOf(db: Tx, rows: readonly MessageRow[]): Promise<Map<string, ThreadObject>> {
  const ids = rows.flatMap((row) => (row.threadId ? [row.threadId] : []));
  if (ids.length === 0) return new Map();
  const threads = await db.channel.findMany({ where: { id: { in: ids } }, include: THREAD_INCLUDE });
  const parentIds = [...new Set(threads.flatMap((thread) => (thread.parentId ? [thread.parentId] : [])))];
  const parents = new Map((await db.channel.findMany({ where: { id: { in: parentIds } }, select: { id: true, type: true } })).map((p) => [p.id, p.type]));
  return new Map(threads.map((thread) => [thread.id, toThreadObject(thread, thread.parentId ? (parents.get(thread.parentId) ?? null) : null)]));
}

/** Message objects for stored rows, with their authors and mentioned users read in one query (`known` ones are not read). */
export async function toMessageObjects(db: Tx, rows: readonly MessageRow[], known: readonly UserObject[] = []): Promise<MessageObject[]> {
  const byId = new Map(known.map((user) => [user.id, user]));
  const ids = new Set<string>();
  for (const row of rows) {
    if (row.authorId) ids.add(row.authorId);
    for (const id of parseJson<string[]>(row.mentions, [])) ids.add(id);
  }
  for (const id of byId.keys()) ids.delete(id);
  const [users, threads] = await Promise.all([ids.size > 0 ? db.user.findMany({ where: { id: { in: [...ids] } } }) : [], threadsOf(db, rows)]);
  for (const user of users) byId.set(user.id, toUserObject(user));
  return rows.map((row) => toMessageObject(row, byId, threads));
}

/** The snapshot a forward keeps of its source. */
export function toSnapshot(message: MessageObject): MessageSnapshot {
  const { type, content, mentions, mention_roles, attachments, embeds, timestamp, edited_timestamp, flags, components } = message;
  return { message: { type, content, mentions, mention_roles, attachments, embeds, timestamp, edited_timestamp, flags, components } };
}
