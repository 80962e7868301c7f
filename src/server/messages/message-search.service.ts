import { MessageFlags, MessageSearchHasType, MessageSearchSortMode, PermissionFlagsBits as P, RESTJSONErrorCodes } from "discord-api-types/v10";
import { Prisma } from "~/generated/prisma/client.ts";
import { requireIntentOf } from "~/server/applications/intents.ts";
import type { ServiceContext } from "~/server/context.ts";
import { providerOf, type Db } from "~/server/db/client.ts";
import { orderBySnowflake, snowflakeBeyond } from "~/server/db/snowflake-sql.ts";
import { ApiError } from "~/server/errors.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { canSeeThread, threadPermissions } from "~/server/threads/thread-access.ts";
import { IS_A_THREAD, THREAD_INCLUDE, toThreadMemberObject, toThreadObject, type ThreadMemberObject, type ThreadObject } from "~/server/threads/thread.dto.ts";
import { MESSAGE_INCLUDE, toMessageObjects, type MessageObject } from "./message.dto.ts";
import { canReadMessages } from "./message-access.ts";
import { contentMatch, searchIndexBuildOf, searchWords } from "./message-search-index.ts";
import { SEARCH_LIMIT_DEFAULT, type TSearchGuildMessagesQuery } from "./message-search.schema.ts";

/** A message found by a search: the message object, marked as a direct hit. */
type SearchHitObject = MessageObject & { hit: true };

export type MessageSearchResultObject = {
  /** One hit per entry (the platform once sent surrounding messages beside each). */
  messages: SearchHitObject[][];
  total_results: number;
  /** The threads the hits are in. */
  threads: ThreadObject[];
  /** The caller's thread member object for each of those threads they joined. */
  members: ThreadMemberObject[];
  doing_deep_historical_index: boolean;
};

/** The 202 answer while a guild's index is being built (spec 7: 110000). */
export type SearchIndexPendingObject = { message: string; code: number; documents_indexed: number; retry_after: number };

export function isSearchIndexPending(answer: MessageSearchResultObject | SearchIndexPendingObject): answer is SearchIndexPendingObject {
  return "code" in answer;
}

/** Seconds a client is told to wait before asking again while the index is built. */
const INDEX_RETRY_AFTER = 2;

/** How far the caller reaches into one channel or thread. */
type Reach = { visible: boolean; readable: boolean; nsfw: boolean; /** Threads: the parent's type (the thread object needs it). */ parentType: number | null };

/**
 * The channels and threads a search looks in. Without channel_id: every one where the caller
 * has VIEW_CHANNEL and READ_MESSAGE_HISTORY (private threads only when joined or managed),
 * age-restricted ones only with include_nsfw. A named one must be readable: 10003 when it is
 * not the guild's, 50001 when hidden, 50013 without READ_MESSAGE_HISTORY, as reading it would be.
 */
async function searchScope(db: Db, access: GuildAccess, query: TSearchGuildMessagesQuery) {
  const channels = await access.state.channels();
  const named = query.channel_id ? [...new Set(query.channel_id)] : null;
  const reach = new Map<string, Reach>();
  for (const row of channels.rows) {
    const permissions = channelPermissions(access, { type: row.type, overwrites: toOverwriteInputs(row.overwrites) });
    // Channels that hold no messages themselves (categories, forums) simply match nothing.
    reach.set(row.id, {
      visible: hasPermission(permissions, P.ViewChannel),
      readable: canReadMessages(permissions, row),
      nsfw: row.nsfw,
      parentType: null,
    });
  }
  // The guild's cached state leaves threads out.
  const threads = await db.channel.findMany({
    where: { guildId: access.guild.id, type: IS_A_THREAD, ...(named && { id: { in: named } }) },
    select: { id: true, type: true, parentId: true, threadMembers: { where: { userId: access.userId }, select: { userId: true } } },
  });
  for (const thread of threads) {
    const parent = thread.parentId ? channels.byId.get(thread.parentId) : undefined;
    if (!parent) continue;
    const permissions = threadPermissions(access, parent, thread.type);
    const joined = thread.threadMembers.length > 0;
    const visible = canSeeThread(permissions, thread.type, joined);
    reach.set(thread.id, { visible, readable: canReadMessages(permissions, { type: thread.type, joined }), nsfw: parent.nsfw, parentType: parent.type });
  }
  if (named) {
    for (const id of named) {
      const one = reach.get(id);
      if (!one) throw new ApiError("UNKNOWN_CHANNEL");
      if (!one.visible) throw new ApiError("MISSING_ACCESS");
      if (!one.readable) throw new ApiError("MISSING_PERMISSIONS");
    }
  }
  const includeNsfw = query.include_nsfw ?? false;
  const channelIds = named ?? [...reach].filter(([, one]) => one.readable && (includeNsfw || !one.nsfw)).map(([id]) => id);
  const threadParentTypes = new Map([...reach].flatMap(([id, one]) => (one.parentType === null ? [] : [[id, one.parentType] as const])));
  return { channelIds, threadParentTypes };
}

const TRUE = Prisma.sql`TRUE`;
const FALSE = Prisma.sql`FALSE`;

const AUTHOR_TYPES: Record<string, Prisma.Sql> = {
  user: Prisma.sql`(m."webhookId" IS NULL AND COALESCE(u."bot", FALSE) = FALSE)`,
  bot: Prisma.sql`(m."webhookId" IS NULL AND COALESCE(u."bot", FALSE) = TRUE)`,
  webhook: Prisma.sql`m."webhookId" IS NOT NULL`,
};

const attachmentLike = (contentType: string) =>
  Prisma.sql`EXISTS (SELECT 1 FROM "Attachment" a WHERE a."messageId" = m."id" AND a."contentType" LIKE ${`${contentType}/%`})`;

const HAS: Record<string, Prisma.Sql> = {
  [MessageSearchHasType.Link]: Prisma.sql`(m."content" LIKE '%http://%' OR m."content" LIKE '%https://%')`,
  [MessageSearchHasType.Embed]: Prisma.sql`m."embeds" <> '[]'`,
  [MessageSearchHasType.File]: Prisma.sql`EXISTS (SELECT 1 FROM "Attachment" a WHERE a."messageId" = m."id")`,
  [MessageSearchHasType.Image]: attachmentLike("image"),
  [MessageSearchHasType.Video]: attachmentLike("video"),
  [MessageSearchHasType.Sound]: attachmentLike("audio"),
  // Messages here carry no stickers.
  [MessageSearchHasType.Sticker]: FALSE,
  [MessageSearchHasType.Poll]: Prisma.sql`m."poll" IS NOT NULL`,
  [MessageSearchHasType.Snapshot]: Prisma.sql`(m."flags" & ${Prisma.raw(String(MessageFlags.HasSnapshot))}) <> 0`,
};

const isExclusion = (value: string) => value.startsWith("-");

/** The condition a filter value names (the schema admits only names the table has); a `-` value excludes it. */
function conditionOf(table: Record<string, Prisma.Sql>, value: string): Prisma.Sql {
  const condition = table[value.replace(/^-/, "")]!;
  return isExclusion(value) ? Prisma.sql`NOT ${condition}` : condition;
}

function anyOf(conditions: readonly Prisma.Sql[]): Prisma.Sql {
  return Prisma.sql`(${Prisma.join(conditions, " OR ")})`;
}

/** Any of the ids in a stored JSON array of ids (ids are digits, so the quoted form is exact). */
function mentionsAny(column: Prisma.Sql, ids: readonly string[]): Prisma.Sql {
  return anyOf(ids.map((id) => Prisma.sql`${column} LIKE ${`%"${id}"%`}`));
}

/** The conditions on messages `m` (and their author `u`) besides the content. */
function filtersOf(guildId: string, channelIds: readonly string[], query: TSearchGuildMessagesQuery): Prisma.Sql[] {
  const where = [Prisma.sql`m."guildId" = ${guildId}`, Prisma.sql`m."channelId" IN (${Prisma.join(channelIds)})`];
  if (query.author_id?.length) {
    // A webhook's messages carry the webhook's id as their author's.
    where.push(anyOf([Prisma.sql`m."authorId" IN (${Prisma.join(query.author_id)})`, Prisma.sql`m."webhookId" IN (${Prisma.join(query.author_id)})`]));
  }
  // A message has one author type: the ones named are alternatives, the excluded ones all apply.
  const authorTypes = query.author_type ?? [];
  const included = authorTypes.filter((type) => !isExclusion(type));
  if (included.length > 0) where.push(anyOf(included.map((type) => conditionOf(AUTHOR_TYPES, type))));
  for (const type of authorTypes.filter(isExclusion)) where.push(conditionOf(AUTHOR_TYPES, type));
  // A message may have several things: each one named must hold.
  for (const has of query.has ?? []) where.push(conditionOf(HAS, has));
  if (query.mentions?.length) where.push(mentionsAny(Prisma.sql`m."mentions"`, query.mentions));
  if (query.mentions_role_id?.length) where.push(mentionsAny(Prisma.sql`m."mentionRoles"`, query.mentions_role_id));
  if (query.mention_everyone !== undefined) where.push(Prisma.sql`m."mentionEveryone" = ${query.mention_everyone ? TRUE : FALSE}`);
  if (query.pinned !== undefined) where.push(Prisma.sql`m."pinned" = ${query.pinned ? TRUE : FALSE}`);
  if (query.min_id) where.push(snowflakeBeyond(Prisma.sql`m."id"`, ">", query.min_id));
  if (query.max_id) where.push(snowflakeBeyond(Prisma.sql`m."id"`, "<", query.max_id));
  return where;
}

/** The ids of one page of matches, in the order asked for, and how many match in all. */
async function findMatches(db: Db, guildId: string, channelIds: readonly string[], query: TSearchGuildMessagesQuery) {
  // Blank content filters nothing; text with no words in it (only punctuation) matches nothing.
  const words = query.content?.trim() ? searchWords(query.content) : null;
  if (channelIds.length === 0 || words?.length === 0) return { ids: [], total: 0 };
  const match = words ? contentMatch(providerOf(db), words) : null;
  const needsAuthor = (query.author_type?.length ?? 0) > 0;
  const from = Prisma.sql`FROM ${match?.source ?? Prisma.sql`"Message" m`} ${needsAuthor ? Prisma.sql`LEFT JOIN "User" u ON u."id" = m."authorId"` : Prisma.empty}
    WHERE ${Prisma.join(filtersOf(guildId, channelIds, query), " AND ")}`;
  // Relevance ignores sort_order, as the platform's does; without content there is none to rank by.
  const order =
    query.sort_by === MessageSearchSortMode.Relevance && match
      ? Prisma.sql`ORDER BY ${match.rank} ASC, LENGTH(m."id") DESC, m."id" DESC`
      : orderBySnowflake(Prisma.sql`m."id"`, query.sort_order === "asc" ? "ASC" : "DESC");
  const [counted] = await db.$queryRaw<{ total: bigint | number }[]>`SELECT COUNT(*) AS "total" ${from}`;
  const page = await db.$queryRaw<{ id: string }[]>`SELECT m."id" ${from} ${order} LIMIT ${query.limit ?? SEARCH_LIMIT_DEFAULT} OFFSET ${query.offset ?? 0}`;
  return { ids: page.map((row) => row.id), total: Number(counted?.total ?? 0) };
}

/**
 * GET /guilds/{guild.id}/messages/search (spec 4.9, 7): a guild's messages matching the
 * content (every word, by stem) and filters, newest first by default, in the channels whose
 * history the caller can read. Bots need the MESSAGE_CONTENT intent (50001 without it). While
 * the guild's index is being built: the 110000 answer (REST sends it as 202).
 */
export async function searchGuildMessages(
  ctx: ServiceContext,
  input: { guildId: string; query: TSearchGuildMessagesQuery },
): Promise<MessageSearchResultObject | SearchIndexPendingObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  await requireIntentOf(ctx, "MESSAGE_CONTENT");
  const { channelIds, threadParentTypes } = await searchScope(ctx.db, access, input.query);
  const build = await searchIndexBuildOf(ctx.db, access.guild.id);
  if (build) {
    return {
      message: "Index not yet available. Try again later",
      code: RESTJSONErrorCodes.IndexNotYetAvailable,
      documents_indexed: build.documentsIndexed,
      retry_after: INDEX_RETRY_AFTER,
    };
  }
  const { ids, total } = await findMatches(ctx.db, access.guild.id, channelIds, input.query);
  const rows = await ctx.db.message.findMany({ where: { id: { in: ids } }, include: MESSAGE_INCLUDE });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const objects = await toMessageObjects(
    ctx.db,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
  const threadIds = [...new Set(objects.map((message) => message.channel_id))].filter((id) => threadParentTypes.has(id));
  const [threadRows, memberRows] =
    threadIds.length === 0
      ? [[], []]
      : await Promise.all([
          ctx.db.channel.findMany({ where: { id: { in: threadIds } }, include: THREAD_INCLUDE }),
          ctx.db.threadMember.findMany({ where: { threadId: { in: threadIds }, userId: access.userId } }),
        ]);
  const threadById = new Map(threadRows.map((row) => [row.id, row]));
  return {
    messages: objects.map((message) => [{ ...message, hit: true }]),
    total_results: total,
    threads: threadIds.flatMap((id) => {
      const row = threadById.get(id);
      return row ? [toThreadObject(row, threadParentTypes.get(id)!)] : [];
    }),
    members: memberRows.map(toThreadMemberObject),
    doing_deep_historical_index: false,
  };
}
