import { z } from "zod";
import { ZImageDataSchema } from "~/server/images/image.schema.ts";
import { lengthBetween, ZSnowflakeSchema } from "~/server/validation/fields.ts";

/** An emoji's name: 2 to 32 letters, digits and underscores (the platform's rule). */
const EMOJI_NAME = /^[A-Za-z0-9_]+$/;
const EMOJI_NAME_MIN = 2;
export const EMOJI_NAME_MAX = 32;
/** An emoji's image may be at most 256 KiB, as on the platform. */
export const EMOJI_IMAGE_MAX_BYTES = 256 * 1024;

const ZEmojiNameSchema = lengthBetween(EMOJI_NAME_MIN, EMOJI_NAME_MAX).refine((name) => EMOJI_NAME.test(name), {
  message: "String value did not match validation regex.",
  params: { code: "STRING_TYPE_REGEX" },
});

const ZEmojiRolesSchema = z.array(ZSnowflakeSchema).max(250);

/** POST /guilds/{guild.id}/emojis. */
export const ZGuildEmojiCreateBodySchema = z.object({
  name: ZEmojiNameSchema,
  image: ZImageDataSchema.unwrap(),
  roles: ZEmojiRolesSchema.nullish(),
});
export type TGuildEmojiCreateBody = z.infer<typeof ZGuildEmojiCreateBodySchema>;

/** PATCH /guilds/{guild.id}/emojis/{emoji.id}: the image never changes. */
export const ZGuildEmojiModifyBodySchema = z.object({
  name: ZEmojiNameSchema.optional(),
  roles: ZEmojiRolesSchema.nullish(),
});
export type TGuildEmojiModifyBody = z.infer<typeof ZGuildEmojiModifyBodySchema>;

/** POST /applications/{application.id}/emojis. */
export const ZApplicationEmojiCreateBodySchema = z.object({ name: ZEmojiNameSchema, image: ZImageDataSchema.unwrap() });
export type TApplicationEmojiCreateBody = z.infer<typeof ZApplicationEmojiCreateBodySchema>;

/** PATCH /applications/{application.id}/emojis/{emoji.id}. */
export const ZApplicationEmojiModifyBodySchema = z.object({ name: ZEmojiNameSchema });
export type TApplicationEmojiModifyBody = z.infer<typeof ZApplicationEmojiModifyBodySchema>;
