import { z } from "zod";
import { ZImageDataSchema } from "~/server/images/image.schema.ts";
import { intBetween, lengthBetween, ZPermissionStringSchema, ZSnowflakeSchema } from "~/server/validation/fields.ts";

const ROLE_NAME_MIN = 1;
/** Spec 4.6: name, at most 100 characters. */
export const ROLE_NAME_MAX = 100;
export const ROLE_DEFAULT_NAME = "new role";
/** Roles a guild may have besides @everyone (platform limit, error 30005). */
export const ROLE_MAX = 250;
/** Role colors are RGB integers. */
export const ROLE_COLOR_MAX = 0xffffff;
/** The only colors a holographic role may have: sending tertiary_color selects this style. */
export const HOLOGRAPHIC_ROLE_COLORS = { primary_color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 } as const;

const ZRoleNameSchema = lengthBetween(ROLE_NAME_MIN, ROLE_NAME_MAX);
const ZRoleColorSchema = intBetween(0, ROLE_COLOR_MAX);

/** Spec 2.6: the role colors object; secondary and tertiary are nullable. */
const ZRoleColorsSchema = z.object({
  primary_color: ZRoleColorSchema,
  secondary_color: ZRoleColorSchema.nullish(),
  tertiary_color: ZRoleColorSchema.nullish(),
});

// Zero-width joiner and keycap are listed on purpose: they join emoji sequences.
// eslint-disable-next-line no-misleading-character-class
const EMOJI = /^[\p{Extended_Pictographic}\p{Emoji_Component}\u200d\u20e3]+$/u;
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** A single standard emoji: one grapheme of emoji code points, not a bare digit or sign. */
export function isUnicodeEmoji(value: string): boolean {
  if (!EMOJI.test(value) || /^[0-9#*]+$/.test(value)) return false;
  return [...segmenter.segment(value)].length === 1;
}

const ZUnicodeEmojiSchema = z.string().refine(isUnicodeEmoji, { message: "Invalid emoji", params: { code: "BASE_TYPE_INVALID" } });

/**
 * Spec 4.6 role parameters, for create and modify alike. On create a missing or null field
 * takes its default; on modify undefined leaves a field and null resets it to its default.
 */
export const ZRoleParamsSchema = z.object({
  name: ZRoleNameSchema.nullish(),
  permissions: ZPermissionStringSchema.nullish(),
  color: ZRoleColorSchema.nullish(),
  colors: ZRoleColorsSchema.nullish(),
  hoist: z.boolean().nullish(),
  icon: ZImageDataSchema.optional(),
  unicode_emoji: ZUnicodeEmojiSchema.nullish(),
  mentionable: z.boolean().nullish(),
});
export type TRoleParams = z.output<typeof ZRoleParamsSchema>;

/** PATCH /guilds/{guild.id}/roles: only the roles to move need to be listed. */
export const ZRolePositionsBodySchema = z.array(z.object({ id: ZSnowflakeSchema, position: z.number().int().min(0).nullish() })).max(ROLE_MAX + 1);
export type TRolePositionsBody = z.output<typeof ZRolePositionsBodySchema>;
