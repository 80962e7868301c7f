import { createHash } from "node:crypto";
import { invalidField } from "~/server/errors.ts";
import { DATA_URI } from "./image.schema.ts";

export type ImageFormat = "png" | "jpeg" | "gif" | "webp";
export type ImageData = { format: ImageFormat; contentType: string; bytes: Buffer; animated: boolean };

/** Largest decoded image accepted in a data URI. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

function sniff(bytes: Buffer): ImageFormat | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.subarray(0, 6).toString("latin1") === "GIF87a" || bytes.subarray(0, 6).toString("latin1") === "GIF89a") return "gif";
  if (bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP") return "webp";
  return null;
}

// A GIF is animated when it holds more than one image descriptor after a graphic control block.
function isAnimatedGif(bytes: Buffer): boolean {
  let frames = 0;
  for (let i = 0; i < bytes.length - 2 && frames < 2; i++) {
    if (bytes[i] === 0x21 && bytes[i + 1] === 0xf9 && bytes[i + 2] === 0x04) frames++;
  }
  return frames > 1;
}

/** Decodes an image data URI, checking that the bytes really are the declared image type. */
export function parseImageData(value: string): ImageData | null {
  const match = DATA_URI.exec(value);
  if (!match) return null;
  const bytes = Buffer.from(match[2]!, "base64");
  if (bytes.length === 0 || bytes.length > MAX_IMAGE_BYTES) return null;
  const format = sniff(bytes);
  const declared = match[1] === "jpg" ? "jpeg" : (match[1] as ImageFormat);
  if (format !== declared) return null;
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
