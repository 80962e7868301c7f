import { z } from "zod";
import { isFormFile, type FormFile } from "~/server/http/multipart.ts";
import { lengthBetween } from "~/server/validation/fields.ts";

export const STICKER_NAME_MIN = 2;
export const STICKER_NAME_MAX = 30;
export const STICKER_TAGS_MAX = 200;

const ZStickerNameSchema = lengthBetween(STICKER_NAME_MIN, STICKER_NAME_MAX);
// Empty, or 2 to 100 characters (the platform's rule); stored as null when empty.
const ZStickerDescriptionSchema = z.union([z.literal(""), lengthBetween(2, 100)]);
const ZStickerTagsSchema = lengthBetween(1, STICKER_TAGS_MAX);

/** POST /guilds/{guild.id}/stickers: a multipart form; the file is checked by the service (format and size). */
export const ZStickerCreateBodySchema = z.object({
  name: ZStickerNameSchema,
  description: ZStickerDescriptionSchema.optional(),
  tags: ZStickerTagsSchema,
  file: z.custom<FormFile>(isFormFile, { message: "This field is required", params: { code: "BASE_TYPE_REQUIRED" } }),
});
export type TStickerCreateBody = z.infer<typeof ZStickerCreateBodySchema>;

/** PATCH /guilds/{guild.id}/stickers/{sticker.id}: the file never changes. */
export const ZStickerModifyBodySchema = z.object({
  name: ZStickerNameSchema.optional(),
  description: ZStickerDescriptionSchema.nullish(),
  tags: ZStickerTagsSchema.optional(),
});
export type TStickerModifyBody = z.infer<typeof ZStickerModifyBodySchema>;
