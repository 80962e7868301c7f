import { InviteTargetType } from "discord-api-types/v10";
import { z } from "zod";
import { intBetween, ZQueryBooleanSchema, ZSnowflakeSchema } from "~/server/validation/fields.ts";

const INVITE_MAX_AGE_MAX = 604_800;
export const INVITE_MAX_AGE_DEFAULT = 86_400;
const INVITE_MAX_USES_MAX = 100;
const INVITE_ROLES_MAX = 250;
const INVITE_TARGET_USERS_MAX = 1000;
/** The largest target-users file (16 MiB: room for about 750,000 ids, one a line), refused with 413 past it. */
export const TARGET_USERS_FILE_MAX_BYTES = 16 * 1024 * 1024;
/** The largest target-users upload: the file and its multipart form's boundaries and part headers. */
export const TARGET_USERS_BODY_MAX_BYTES = TARGET_USERS_FILE_MAX_BYTES + 64 * 1024;
/** Invites a guild may have at once (the platform's limit, 30016). */
export const GUILD_INVITES_MAX = 1000;
/** The platform's guild invite flag IS_GUEST_INVITE. */
export const GUEST_INVITE_FLAG = 1 << 0;

/** Snowflakes as an array or as one comma-separated string, as the official description allows. */
function snowflakeList(max: number) {
  const list = z.array(ZSnowflakeSchema).max(max);
  return z.union([
    list,
    z
      .string()
      .transform((value) => value.split(",").filter(Boolean))
      .pipe(list),
  ]);
}

/** POST /channels/{channel.id}/invites */
export const ZInviteCreateBodySchema = z.object({
  max_age: intBetween(0, INVITE_MAX_AGE_MAX).nullable().optional(),
  max_uses: intBetween(0, INVITE_MAX_USES_MAX).nullable().optional(),
  temporary: z.boolean().nullable().optional(),
  unique: z.boolean().nullable().optional(),
  target_type: z
    .union([z.literal(InviteTargetType.Stream), z.literal(InviteTargetType.EmbeddedApplication)])
    .nullable()
    .optional(),
  target_user_id: ZSnowflakeSchema.nullable().optional(),
  target_application_id: ZSnowflakeSchema.nullable().optional(),
  target_user_ids: snowflakeList(INVITE_TARGET_USERS_MAX).nullable().optional(),
  role_ids: snowflakeList(INVITE_ROLES_MAX).nullable().optional(),
  flags: z.number().int().min(0).nullable().optional(),
});
export type TInviteCreateBody = z.output<typeof ZInviteCreateBodySchema>;

/** GET /invites/{invite.code} */
export const ZInviteGetQuerySchema = z.object({
  with_counts: ZQueryBooleanSchema.optional(),
  guild_scheduled_event_id: ZSnowflakeSchema.optional(),
});
export type TInviteGetQuery = z.output<typeof ZInviteGetQuerySchema>;

const VANITY_CODE_MIN = 2;
const VANITY_CODE_MAX = 32;
/** PATCH /guilds/{guild.id}/vanity-url: letters, digits and dashes; null removes it. */
export const ZVanityBodySchema = z.object({
  code: z
    .string()
    .min(VANITY_CODE_MIN)
    .max(VANITY_CODE_MAX)
    .regex(/^[a-zA-Z0-9-]+$/, "Only letters, digits and dashes.")
    .nullable(),
});

/** PUT /invites/{code}/target-users: the multipart file field (checked lazily: browsers have no Buffer). */
export const ZTargetUsersFormSchema = z.object(
  { target_users_file: z.custom<Buffer>((value) => Buffer.isBuffer(value), { message: "This field is required" }) },
  { error: "Expected a multipart/form-data body with target_users_file." },
);
/** The four later target-user edits take `user_ids`. */
export const ZTargetUserIdsBodySchema = z.object({ user_ids: z.array(ZSnowflakeSchema).min(1).max(INVITE_TARGET_USERS_MAX) });
