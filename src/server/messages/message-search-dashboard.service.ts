import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { threadPermissions } from "~/server/threads/thread-access.ts";
import { mentionListsOf, type DashboardMessage, type MentionLists } from "./message-dashboard.service.ts";
import { SEARCH_LIMIT_MAX, SEARCH_OFFSET_MAX, type TSearchGuildMessagesQuery } from "./message-search.schema.ts";
import { isSearchIndexPending, searchGuildMessages } from "./message-search.service.ts";

/** Results a dashboard search shows at once (the platform's most). */
const DASHBOARD_SEARCH_PAGE_SIZE = SEARCH_LIMIT_MAX;
/** The last page a search reaches: its offset stops at SEARCH_OFFSET_MAX. */
export const DASHBOARD_SEARCH_PAGE_MAX = SEARCH_OFFSET_MAX / DASHBOARD_SEARCH_PAGE_SIZE + 1;

/** Threads a message can start; they take the starter message's id. */
const STARTED_THREAD_TYPES = [ChannelType.PublicThread, ChannelType.AnnouncementThread];

/** A hit as the dashboard draws it, with the channel or thread it was posted in. */
type DashboardSearchHit = DashboardMessage & { channel: { id: string; name: string; isThread: boolean } };

/** What the dashboard asks: words, and optionally authors and channels. */
export type DashboardSearchQuery = Pick<TSearchGuildMessagesQuery, "content" | "author_id" | "channel_id">;

export type DashboardSearchPage =
  /** The guild's index is being built (the 110000 answer): how far it got, and when to ask again. */
  | { state: "indexing"; documentsIndexed: number; retryAfter: number }
  /** The hits, with what mentions in them name (as on a channel's page). */
  | ({
      state: "results";
      total: number;
      hits: DashboardSearchHit[];
      /** How many pages the results fill, up to the last one a search reaches. */
      pages: number;
    } & MentionLists);

/**
 * A page of a guild's search for the dashboard: the search service's answer to the signed-in
 * user (only channels they can read), each hit with its channel's name and whether they may
 * delete it there (their own, or anyone's with MANAGE_MESSAGES); publishing stays on the
 * channel's own page. The 110000 answer becomes the "indexing" state rather than an error.
 */
export async function searchMessagesForDashboard(
  ctx: ServiceContext,
  input: { guildId: string; query: DashboardSearchQuery; page: number },
): Promise<DashboardSearchPage> {
  const offset = (input.page - 1) * DASHBOARD_SEARCH_PAGE_SIZE;
  const answer = await searchGuildMessages(ctx, { guildId: input.guildId, query: { ...input.query, limit: DASHBOARD_SEARCH_PAGE_SIZE, offset } });
  if (isSearchIndexPending(answer)) return { state: "indexing", documentsIndexed: answer.documents_indexed, retryAfter: answer.retry_after };

  const access = await loadGuildAccess(ctx, input.guildId);
  const { byId } = await access.state.channels();
  const threadById = new Map(answer.threads.map((thread) => [thread.id, thread]));
  const messages = answer.messages.flatMap((entry) => entry);

  /** Name, kind and MANAGE_MESSAGES of a hit's channel; a thread takes its parent's overwrites. */
  const whereOf = (channelId: string) => {
    const thread = threadById.get(channelId);
    const parent = thread?.parent_id ? byId.get(thread.parent_id) : undefined;
    if (thread && parent) {
      return { name: thread.name, isThread: true, manages: hasPermission(threadPermissions(access, parent, thread.type), P.ManageMessages) };
    }
    const row = byId.get(channelId);
    const permissions = row ? channelPermissions(access, { type: row.type, overwrites: toOverwriteInputs(row.overwrites) }) : 0n;
    return { name: row?.name ?? "unknown channel", isThread: false, manages: hasPermission(permissions, P.ManageMessages) };
  };

  const [started, overrides] = await Promise.all([
    ctx.db.channel.findMany({
      where: { guildId: access.guild.id, type: { in: STARTED_THREAD_TYPES }, id: { in: messages.map((message) => message.id) } },
      select: { id: true, name: true },
    }),
    ctx.db.message.findMany({
      where: {
        id: { in: messages.filter((message) => message.webhook_id && !message.author.avatar).map((message) => message.id) },
        authorAvatarUrl: { not: null },
      },
      select: { id: true, authorAvatarUrl: true },
    }),
  ]);
  const startedOf = new Map(started.map((thread) => [thread.id, thread]));
  const avatarUrlOf = new Map(overrides.map((row) => [row.id, row.authorAvatarUrl]));
  const names = await mentionListsOf(ctx, access, messages);

  return {
    state: "results",
    total: answer.total_results,
    hits: messages.map(({ hit: _hit, ...message }) => {
      const where = whereOf(message.channel_id);
      return {
        ...message,
        canDelete: where.manages || message.author.id === ctx.actor.userId,
        canPublish: false,
        avatarUrl: avatarUrlOf.get(message.id) ?? null,
        thread: startedOf.get(message.id) ?? null,
        channel: { id: message.channel_id, name: where.name, isThread: where.isThread },
      };
    }),
    pages: Math.min(DASHBOARD_SEARCH_PAGE_MAX, Math.ceil(answer.total_results / DASHBOARD_SEARCH_PAGE_SIZE)),
    ...names,
    channels: [...names.channels, ...answer.threads.map((thread) => ({ id: thread.id, name: thread.name }))],
  };
}
