import { invalidField } from "~/server/errors.ts";
import { decodeImageField, type ImageData } from "~/server/images/image-data.ts";
import { EMOJI_IMAGE_MAX_BYTES } from "./emoji.schema.ts";

/** The upload as stored: any of the image formats the platform takes (PNG, JPEG, GIF, WebP), within the size limit. */
export function decodeEmojiImage(value: string): ImageData {
  const image = decodeImageField("image", value);
  if (image.bytes.length > EMOJI_IMAGE_MAX_BYTES) throw invalidField(["image"], "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.");
  return image;
}
