import { StickerFormatType } from "discord-api-types/v10";
import { ApiError } from "~/server/errors.ts";
import { sniffImageFormat } from "~/server/images/image-format.ts";
import { STICKER_FILE_MAX_BYTES } from "./sticker.schema.ts";

export type StickerFile = { formatType: StickerFormatType; contentType: string; bytes: Buffer };

// An APNG is a PNG with an animation control chunk (acTL) before its first image data (IDAT).
function isAnimatedPng(bytes: Buffer): boolean {
  let offset = 8;
  while (offset + 8 <= bytes.length) {
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    if (type === "acTL") return true;
    if (type === "IDAT") return false;
    offset += 12 + bytes.readUInt32BE(offset);
  }
  return false;
}

function isLottie(bytes: Buffer): boolean {
  try {
    const json: unknown = JSON.parse(bytes.toString("utf8"));
    return typeof json === "object" && json !== null && !Array.isArray(json) && "layers" in json;
  } catch {
    return false;
  }
}

/**
 * What an uploaded sticker file is, from its bytes: PNG, APNG, GIF, or a Lottie animation (JSON,
 * only where `lottieAllowed`: verified and partnered guilds, as on the platform); 50046 for
 * anything else.
 */
export function readStickerFile(bytes: Buffer, lottieAllowed: boolean): StickerFile {
  if (bytes.length > STICKER_FILE_MAX_BYTES) throw new ApiError("FILE_TOO_LARGE");
  const image = sniffImageFormat(bytes);
  if (image === "png") return { formatType: isAnimatedPng(bytes) ? StickerFormatType.APNG : StickerFormatType.PNG, contentType: "image/png", bytes };
  if (image === "gif") return { formatType: StickerFormatType.GIF, contentType: "image/gif", bytes };
  if (image === null && lottieAllowed && isLottie(bytes)) return { formatType: StickerFormatType.Lottie, contentType: "application/json", bytes };
  throw new ApiError("INVALID_FILE");
}
