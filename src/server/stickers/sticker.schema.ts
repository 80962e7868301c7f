import { z } from "zod";
import { isFormFile, type FormFile } from "~/server/http/form-file.ts";
import { lengthBetween } from "~/server/validation/fields.ts";

const STICKER_NAME_MIN = 2;
export const STICKER_NAME_MAX = 30;
export const STICKER_TAGS_MAX = 200;
export const STICKER_DESCRIPTION_MAX = 100;
/** A sticker's file may be at most 512 KiB, as on the platform (50045 past it). */
export const STICKER_FILE_MAX_BYTES = 512 * 1024;

const ZStickerNameSchema = lengthBetween(STICKER_NAME_MIN, STICKER_NAME_MAX);
// Empty, or 2 to 100 characters (the platform's rule); stored as null when empty.
const ZStickerDescriptionSchema = z.union([z.literal(""), lengthBetween(2, STICKER_DESCRIPTION_MAX)]);
const ZStickerTagsSchema = lengthBetween(1, STICKER_TAGS_MAX);

/** A sticker's words, as POST /guilds/{guild.id}/stickers takes them beside its file. */
export const ZStickerFieldsSchema = z.object({
  name: ZStickerNameSchema,
  description: ZStickerDescriptionSchema.optional(),
  tags: ZStickerTagsSchema,
});

/** POST /guilds/{guild.id}/stickers: a multipart form; the file is checked by the service (format and size). */
export const ZStickerCreateBodySchema = ZStickerFieldsSchema.extend({
  file: z.custom<FormFile>(isFormFile, { message: "This field is required", params: { code: "BASE_TYPE_REQUIRED" } }),
});
export type TStickerCreateBody = z.infer<typeof ZStickerCreateBodySchema>;

const STICKER_DATA_URI = /^data:(image\/(?:png|gif));base64,([A-Za-z0-9+/]+={0,2})$/;
/** Room for a file past STICKER_FILE_MAX_BYTES, so an oversized one is refused with the service's own error (50045). */
const STICKER_DATA_URI_MAX = 1024 * 1024;

/**
 * The dashboard's upload (tRPC carries JSON): the file as a PNG or GIF data URI, read into the
 * file a REST form would hold, for the same service to check.
 */
export const ZStickerUploadBodySchema = ZStickerFieldsSchema.extend({
  file: z
    .string()
    .max(STICKER_DATA_URI_MAX)
    .regex(STICKER_DATA_URI, { message: "Use a PNG, APNG or GIF file." })
    .transform((uri): FormFile => {
      const [, contentType, data] = STICKER_DATA_URI.exec(uri)!;
      return Object.assign(Buffer.from(data!, "base64"), { filename: "sticker", contentType: contentType! });
    }),
});

/** PATCH /guilds/{guild.id}/stickers/{sticker.id}: the file never changes. */
export const ZStickerModifyBodySchema = z.object({
  name: ZStickerNameSchema.optional(),
  description: ZStickerDescriptionSchema.nullish(),
  tags: ZStickerTagsSchema.optional(),
});
export type TStickerModifyBody = z.infer<typeof ZStickerModifyBodySchema>;
