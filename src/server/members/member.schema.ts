import { GuildMemberFlags } from "discord-api-types/v10";
import { z } from "zod";
import { AUDIT_REASON_MAX } from "~/server/audit/audit.schema.ts";
import { ZImageDataSchema } from "~/server/images/image.schema.ts";
import { intBetween, lengthBetween, queryInt, ZSnowflakeSchema, ZTimestampSchema } from "~/server/validation/fields.ts";

const MEMBER_LIST_LIMIT_MAX = 1000;
export const MEMBER_SEARCH_QUERY_MAX = 100;
export const NICK_MAX = 32;
const MEMBER_BIO_MAX = 190;
const MEMBER_ROLES_MAX = 350;
const TIMEOUT_MAX_DAYS = 28;
export const TIMEOUT_MAX_MS = TIMEOUT_MAX_DAYS * 24 * 60 * 60 * 1000;
export const BAN_LIST_LIMIT_MAX = 1000;
const BULK_BAN_MAX = 200;
export const DELETE_MESSAGE_SECONDS_MAX = 604_800;
export const PRUNE_DAYS_MIN = 1;
export const PRUNE_DAYS_MAX = 30;
export const PRUNE_DAYS_DEFAULT = 7;
const PRUNE_ROLES_MAX = 100;

/** The only member flag a moderator may change (spec 2.3). */
export const EDITABLE_MEMBER_FLAGS = GuildMemberFlags.BypassesVerification;

/** A nickname: 1-32 characters; empty resets it, as on the platform. */
export const ZNickSchema = z
  .string()
  .check((ctx) => {
    const length = [...ctx.value].length;
    if (length > NICK_MAX)
      ctx.issues.push({ code: "custom", input: ctx.value, message: `Must be ${NICK_MAX} or fewer in length.`, params: { code: "BASE_TYPE_MAX_LENGTH" } });
  })
  .nullable();

/** GET /guilds/{guild.id}/members */
export const ZMemberListQuerySchema = z.object({
  limit: queryInt(1, MEMBER_LIST_LIMIT_MAX).default(1),
  after: ZSnowflakeSchema.default("0"),
});
export type TMemberListQuery = z.output<typeof ZMemberListQuerySchema>;

/** GET /guilds/{guild.id}/members/search */
export const ZMemberSearchQuerySchema = z.object({
  query: lengthBetween(1, MEMBER_SEARCH_QUERY_MAX),
  limit: queryInt(1, MEMBER_LIST_LIMIT_MAX).default(1),
});
export type TMemberSearchQuery = z.output<typeof ZMemberSearchQuerySchema>;

const ZRoleIdsSchema = z.array(ZSnowflakeSchema).max(MEMBER_ROLES_MAX);

/** PUT /guilds/{guild.id}/members/{user.id} (OAuth2 guilds.join). */
export const ZMemberAddBodySchema = z.object({
  access_token: z.string().min(1).max(10_240),
  nick: ZNickSchema.optional(),
  roles: ZRoleIdsSchema.nullable().optional(),
  mute: z.boolean().nullable().optional(),
  deaf: z.boolean().nullable().optional(),
  flags: z.number().int().nullable().optional(),
});
export type TMemberAddBody = z.output<typeof ZMemberAddBodySchema>;

/** PATCH /guilds/{guild.id}/members/{user.id} (spec 4.5): every field optional and nullable. */
export const ZMemberModifyBodySchema = z.object({
  nick: ZNickSchema.optional(),
  roles: ZRoleIdsSchema.nullable().optional(),
  mute: z.boolean().nullable().optional(),
  deaf: z.boolean().nullable().optional(),
  channel_id: ZSnowflakeSchema.nullable().optional(),
  communication_disabled_until: ZTimestampSchema.nullable().optional(),
  flags: z.number().int().min(0).nullable().optional(),
});
export type TMemberModifyBody = z.output<typeof ZMemberModifyBodySchema>;

/** PATCH /guilds/{guild.id}/members/@me */
export const ZCurrentMemberModifyBodySchema = z.object({
  nick: ZNickSchema.optional(),
  avatar: ZImageDataSchema.optional(),
  banner: ZImageDataSchema.optional(),
  bio: lengthBetween(0, MEMBER_BIO_MAX).nullable().optional(),
});
export type TCurrentMemberModifyBody = z.output<typeof ZCurrentMemberModifyBodySchema>;

/** PATCH /guilds/{guild.id}/members/@me/nick (deprecated) */
export const ZCurrentNickBodySchema = z.object({ nick: ZNickSchema.optional() });

/** GET /guilds/{guild.id}/bans */
export const ZBanListQuerySchema = z.object({
  limit: queryInt(1, BAN_LIST_LIMIT_MAX).default(BAN_LIST_LIMIT_MAX),
  before: ZSnowflakeSchema.optional(),
  after: ZSnowflakeSchema.optional(),
});
export type TBanListQuery = z.output<typeof ZBanListQuerySchema>;

const ZDeleteMessageSecondsSchema = intBetween(0, DELETE_MESSAGE_SECONDS_MAX).nullable().optional();

/** PUT /guilds/{guild.id}/bans/{user.id}; `delete_message_days` is the deprecated form. */
export const ZBanCreateBodySchema = z.object({
  delete_message_seconds: ZDeleteMessageSecondsSchema,
  delete_message_days: intBetween(0, 7).nullable().optional(),
});
type TBanCreateBody = z.output<typeof ZBanCreateBodySchema>;

/** How far back a ban deletes the user's messages: delete_message_seconds, else the days of the deprecated form. */
export function banDeleteSeconds(body: TBanCreateBody): number {
  return body.delete_message_seconds ?? (body.delete_message_days ?? 0) * 24 * 60 * 60;
}

/** POST /guilds/{guild.id}/bulk-ban */
export const ZBulkBanBodySchema = z.object({
  user_ids: z.array(ZSnowflakeSchema).min(1).max(BULK_BAN_MAX),
  delete_message_seconds: ZDeleteMessageSecondsSchema,
});
export type TBulkBanBody = z.output<typeof ZBulkBanBodySchema>;

const ZPruneDaysSchema = intBetween(PRUNE_DAYS_MIN, PRUNE_DAYS_MAX);
const ZPruneRoleListSchema = z.array(ZSnowflakeSchema).max(PRUNE_ROLES_MAX);
/** Comma-separated role ids, as the query string and older clients send them. */
const ZPruneRoleCsvSchema = z
  .string()
  .transform((value) => value.split(",").filter((id) => id !== ""))
  .pipe(ZPruneRoleListSchema);

/** GET /guilds/{guild.id}/prune */
export const ZPruneQuerySchema = z.object({
  days: queryInt(PRUNE_DAYS_MIN, PRUNE_DAYS_MAX).default(PRUNE_DAYS_DEFAULT),
  include_roles: ZPruneRoleCsvSchema.default([]),
});

/** POST /guilds/{guild.id}/prune; `reason` is the deprecated body form of the audit header. */
export const ZPruneBodySchema = z.object({
  days: ZPruneDaysSchema.nullable()
    .optional()
    .transform((v) => v ?? PRUNE_DAYS_DEFAULT),
  compute_prune_count: z
    .boolean()
    .nullable()
    .optional()
    .transform((v) => v ?? true),
  include_roles: z
    .union([ZPruneRoleListSchema, ZPruneRoleCsvSchema])
    .nullable()
    .optional()
    .transform((v) => v ?? []),
  reason: z.string().max(AUDIT_REASON_MAX).nullable().optional(),
});

/** What a prune counts or removes, as both endpoints and the dashboard give it. */
export const ZPruneInputSchema = z.object({ days: ZPruneDaysSchema, include_roles: ZPruneRoleListSchema });
export type TPruneInput = z.output<typeof ZPruneInputSchema>;

/** PATCH /guilds/{guild.id}/member-verification */
export const ZScreeningBodySchema = z.object({ enabled: z.boolean() });
