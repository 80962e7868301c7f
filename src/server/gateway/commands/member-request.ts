import { GatewayIntentBits } from "discord-api-types/v10";
import { z } from "zod";
import { MEMBER_LOOKUP_MAX, type MemberSelection } from "~/server/members/member-chunk.service.ts";
import { ZSnowflakeSchema } from "~/server/snowflake/snowflake.ts";
import { hasIntent } from "../intents.ts";

// What a request for guild members (op 8) asks for and whether the session may ask it: the
// platform's rules, apart from the command that answers it.

/** The platform's longest nonce; a longer one is ignored (the chunks carry none), not refused. */
const MAX_NONCE_BYTES = 32;

/** REQUEST_GUILD_MEMBERS (op 8): one guild, and `query` with `limit` or `user_ids`. */
export const ZRequestGuildMembersSchema = z
  .object({
    guild_id: ZSnowflakeSchema,
    query: z.string().nullish(),
    limit: z.number().int().nonnegative().nullish(),
    presences: z.boolean().nullish(),
    user_ids: z.union([ZSnowflakeSchema, z.array(ZSnowflakeSchema)]).nullish(),
    nonce: z.string().nullish(),
  })
  .refine((command) => command.user_ids != null || (command.query != null && command.limit != null), "query with limit, or user_ids");

export type RequestGuildMembersCommand = z.output<typeof ZRequestGuildMembersSchema>;

/**
 * The members a request names: `user_ids` first (at most 100 looked up); an empty `query` is
 * the whole guild (`limit` 0) or its first `limit` members; a prefix answers at most 100.
 */
export function selectionOf(command: RequestGuildMembersCommand): MemberSelection {
  if (command.user_ids != null) return { kind: "ids", userIds: [...new Set([command.user_ids].flat())].slice(0, MEMBER_LOOKUP_MAX) };
  const limit = command.limit ?? 0;
  if (!command.query) return { kind: "all", limit };
  return { kind: "prefix", prefix: command.query, limit: limit === 0 ? MEMBER_LOOKUP_MAX : Math.min(limit, MEMBER_LOOKUP_MAX) };
}

/**
 * Why the session may not have these members, or null. The platform asks for GUILD_MEMBERS
 * to list members without naming them (an empty query, whatever the limit); a name prefix
 * or user ids need no intent, as fetching one member over REST needs none.
 */
export function memberRequestDenial(intents: number, selection: MemberSelection): string | null {
  if (selection.kind === "all" && !hasIntent(intents, GatewayIntentBits.GuildMembers)) return "listing members without a query needs the GUILD_MEMBERS intent";
  return null;
}

/**
 * Whether a request counts against the whole-guild limit (one per guild per bot every 30
 * seconds). The platform names the empty query with limit 0; any other listing that answers
 * every member (a limit at or above the guild's member count) or more than any query may (100)
 * costs the same, so it counts too: otherwise a large limit would lift the limit.
 */
export function isWholeGuild(selection: MemberSelection, memberCount: number): boolean {
  return selection.kind === "all" && (selection.limit === 0 || selection.limit > MEMBER_LOOKUP_MAX || selection.limit >= memberCount);
}

/** The nonce the answer carries: the request's when it is at most 32 bytes. */
export function nonceOf(nonce: string | null | undefined): string | undefined {
  return nonce != null && Buffer.byteLength(nonce, "utf8") <= MAX_NONCE_BYTES ? nonce : undefined;
}
