import { MessageSearchAuthorType, MessageSearchHasType, MessageSearchSortMode } from "discord-api-types/v10";
import { z } from "zod";
import { intBetween, queryList, ZSnowflakeSchema } from "~/server/validation/fields.ts";

// Search Guild Messages' limits (spec 4.9; the platform's documented query).
export const SEARCH_CONTENT_MAX = 1024;
const SEARCH_IDS_MAX = 100;
const SEARCH_CHANNELS_MAX = 500;
export const SEARCH_LIMIT_MAX = 25;
export const SEARCH_LIMIT_DEFAULT = 25;
export const SEARCH_OFFSET_MAX = 9975;

/** An integer from a query string ("25") or from JSON (25, the dashboard's form). */
function searchInt(min: number, max: number) {
  return z.preprocess((value) => (typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value), intBetween(min, max));
}

const QUERY_BOOLEANS = new Map([
  ["true", true],
  ["True", true],
  ["1", true],
  ["false", false],
  ["False", false],
  ["0", false],
]);

/** A boolean from a query string (true/false/1/0, as the platform accepts) or from JSON. */
const ZSearchBooleanSchema = z.preprocess((value) => (typeof value === "string" ? (QUERY_BOOLEANS.get(value) ?? value) : value), z.boolean());

/**
 * The query of GET /guilds/{guild.id}/messages/search, as query strings (lists as repeated
 * parameters) or as JSON for the dashboard's tRPC procedure. Filters of several values match
 * any of them; `-` author types and has-types exclude.
 */
export const ZSearchGuildMessagesQuerySchema = z.object({
  content: z.string().max(SEARCH_CONTENT_MAX).optional(),
  author_id: queryList(ZSnowflakeSchema, SEARCH_IDS_MAX).optional(),
  author_type: queryList(z.enum(MessageSearchAuthorType), Object.keys(MessageSearchAuthorType).length).optional(),
  channel_id: queryList(ZSnowflakeSchema, SEARCH_CHANNELS_MAX).optional(),
  mentions: queryList(ZSnowflakeSchema, SEARCH_IDS_MAX).optional(),
  mentions_role_id: queryList(ZSnowflakeSchema, SEARCH_IDS_MAX).optional(),
  mention_everyone: ZSearchBooleanSchema.optional(),
  has: queryList(z.enum(MessageSearchHasType), Object.keys(MessageSearchHasType).length).optional(),
  pinned: ZSearchBooleanSchema.optional(),
  include_nsfw: ZSearchBooleanSchema.optional(),
  min_id: ZSnowflakeSchema.optional(),
  max_id: ZSnowflakeSchema.optional(),
  limit: searchInt(1, SEARCH_LIMIT_MAX).optional(),
  offset: searchInt(0, SEARCH_OFFSET_MAX).optional(),
  sort_by: z.enum(MessageSearchSortMode).optional(),
  sort_order: z.enum(["asc", "desc"]).optional(),
});
export type TSearchGuildMessagesQuery = z.output<typeof ZSearchGuildMessagesQuerySchema>;
