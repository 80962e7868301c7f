import { createHash } from "node:crypto";
import { invalidField } from "~/server/errors.ts";
import { sniffImageFormat, type ImageFormat } from "./image-format.ts";
import { DATA_URI } from "./image.schema.ts";

export type ImageData = { format: ImageFormat; contentType: string; bytes: Buffer; animated: boolean };

/** Largest decoded image accepted in a data URI. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

// A GIF is animated when it holds more than one image descriptor after a graphic control block.
function isAnimatedGif(bytes: Buffer): boolean {
  let frames = 0;
  for (let i = 0; i < bytes.length - 2 && frames < 2; i++) {
    if (bytes[i] === 0x21 && bytes[i + 1] === 0xf9 && bytes[i + 2] === 0x04) frames++;
  }
  return frames > 1;
}

/**
 * Decodes an image data URI whose bytes are an image of a format taken. The bytes say which,
 * as on the platform, whatever image type the URI declares: discord.js declares image/jpg for
 * every Buffer it is given (an avatar, an icon, an emoji), PNGs included.
 */
export function parseImageData(value: string): ImageData | null {
  const match = DATA_URI.exec(value);
  if (!match) return null;
  const bytes = Buffer.from(match[2]!, "base64");
  if (bytes.length === 0 || bytes.length > MAX_IMAGE_BYTES) return null;
  const format = sniffImageFormat(bytes);
  if (!format) return null;
  return { format, contentType: `image/${format}`, bytes, animated: format === "gif" && isAnimatedGif(bytes) };
}

/** The platform's image hash: md5 of the bytes, `a_`-prefixed when animated. */
export function imageHash(image: ImageData): string {
  const hash = createHash("md5").update(image.bytes).digest("hex");
  return image.animated ? `a_${hash}` : hash;
}

/** Decodes a schema-checked data URI for `field`, or fails with the platform's field error. */
export function decodeImageField(field: string, value: string): ImageData {
  const image = parseImageData(value);
  if (!image) throw invalidField([field], "IMAGE_INVALID", "Invalid image data");
  return image;
}
