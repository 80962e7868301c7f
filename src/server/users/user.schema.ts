import { z } from "zod";
import { PROFILE_PRIVACY, type ProfilePrivacy } from "~/server/gateway/presence-privacy.ts";
import { ZImageDataSchema } from "~/server/images/image.schema.ts";
import { lengthBetween, queryInt, ZQueryBooleanSchema, ZSnowflakeSchema } from "~/server/validation/fields.ts";

export const CURRENT_USER_GUILDS_MAX = 200;

/** GET /users/@me/guilds query. */
export const ZCurrentUserGuildsQuerySchema = z.object({
  before: ZSnowflakeSchema.optional(),
  after: ZSnowflakeSchema.optional(),
  limit: queryInt(1, CURRENT_USER_GUILDS_MAX).optional(),
  with_counts: ZQueryBooleanSchema.optional(),
  shard: queryInt(0, 2 ** 31 - 1).optional(),
});
export type TCurrentUserGuildsQuery = z.output<typeof ZCurrentUserGuildsQuerySchema>;

const USERNAME_MIN = 2;
const USERNAME_MAX = 32;

/** A new username, by the platform's rule: 2-32 lowercase letters, digits, `_` and `.`, never two periods in a row. */
export const ZUsernameSchema = z
  .string()
  .min(USERNAME_MIN)
  .max(USERNAME_MAX)
  .refine((name) => /^[a-z0-9_.]+$/.test(name) && !name.includes(".."), {
    message: "Please only use lowercase letters, numbers, underscores _ and periods . (never two periods in a row).",
    params: { code: "USERNAME_INVALID_CHARACTERS" },
  });

// What a bot's name may not hold, as the platform refuses it (bots keep names of the older form: any case, spaces).
const BOT_NAME_FORBIDDEN = ["@", "#", ":", "```", "discord"] as const;
const BOT_NAME_RESERVED = ["everyone", "here"] as const;

/** A bot's username: 2-32 characters (trimmed), none of `@ # : \`\`\`` or "discord", never "everyone" or "here". */
const ZBotUsernameSchema = lengthBetween(USERNAME_MIN, USERNAME_MAX, { trim: true }).refine(
  (name) => !BOT_NAME_FORBIDDEN.some((part) => name.toLowerCase().includes(part)) && !(BOT_NAME_RESERVED as readonly string[]).includes(name.toLowerCase()),
  { message: `Username cannot contain "@", "#", ":", "\`\`\`" or "discord", or be "everyone" or "here".`, params: { code: "USERNAME_INVALID_CONTAINS" } },
);

/** PATCH /users/@me: a bot's own name and avatar (null clears the avatar). */
export const ZModifyCurrentUserBodySchema = z.object({
  username: ZBotUsernameSchema.optional(),
  avatar: ZImageDataSchema.optional(),
});
export type TModifyCurrentUserBody = z.output<typeof ZModifyCurrentUserBodySchema>;

/** A display name: 1-32 characters. */
export const ZGlobalNameSchema = z.string().trim().min(1).max(USERNAME_MAX);

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
