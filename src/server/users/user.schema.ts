import { z } from "zod";
import { PROFILE_PRIVACY, type ProfilePrivacy } from "~/server/gateway/presence-privacy.ts";
import { queryInt, ZQueryBoolean, ZSnowflake } from "~/server/validation/fields.ts";

export const CURRENT_USER_GUILDS_MAX = 200;

/** GET /users/@me/guilds query. */
export const ZCurrentUserGuildsQuerySchema = z.object({
  before: ZSnowflake.optional(),
  after: ZSnowflake.optional(),
  limit: queryInt(1, CURRENT_USER_GUILDS_MAX).optional(),
  with_counts: ZQueryBoolean.optional(),
  shard: queryInt(0, 2 ** 31 - 1).optional(),
});
export type TCurrentUserGuildsQuery = z.output<typeof ZCurrentUserGuildsQuerySchema>;

/** Who sees the user's custom status in presences (spec 6). */
export const ZProfilePrivacySchema = z.enum(PROFILE_PRIVACY);

/** The account settings a user changes for themself. */
export const ZAccountSettingsSchema = z.object({ profile_privacy: ZProfilePrivacySchema });
export type TAccountSettings = z.output<typeof ZAccountSettingsSchema>;

/** A stored privacy value; a value no longer known reads as the most private. */
export function parseProfilePrivacy(value: string): ProfilePrivacy {
  const parsed = ZProfilePrivacySchema.safeParse(value);
  return parsed.success ? parsed.data : "friends_only";
}
