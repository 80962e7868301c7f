import { StickerFormatType } from "discord-api-types/v10";
import { EMOJI_IMAGE_MAX_BYTES, EMOJI_NAME_MAX } from "~/server/emojis/emoji.schema.ts";
import { STICKER_FILE_MAX_BYTES, STICKER_NAME_MAX } from "~/server/stickers/sticker.schema.ts";
import type { RouterOutputs } from "~/trpc/react.tsx";
import type { ExpressionFileKind } from "./expression-file-field.tsx";

export type EmojiRows = RouterOutputs["emoji"]["rows"];
export type EmojiRow = EmojiRows["rows"][number];
export type StickerRow = RouterOutputs["sticker"]["rows"]["rows"][number];
export type SlotUse = EmojiRows["slots"]["static"];

export const EMOJI_FILE: ExpressionFileKind = {
  formats: ["png", "jpeg", "gif", "webp"],
  maxBytes: EMOJI_IMAGE_MAX_BYTES,
  hint: "PNG, JPEG, GIF or WebP, up to 256 KB",
};
export const STICKER_FILE: ExpressionFileKind = { formats: ["png", "gif"], maxBytes: STICKER_FILE_MAX_BYTES, hint: "PNG, APNG or GIF, up to 512 KB" };

/** Where the CDN serves an emoji, as the platform's: animated ones as GIFs. */
export function emojiImageUrl(emoji: { id: string; animated: boolean }): string {
  return `/cdn/emojis/${emoji.id}.${emoji.animated ? "gif" : "png"}`;
}

/** Where the CDN serves a sticker's image; null for a Lottie animation, which is no image. */
export function stickerImageUrl(sticker: { id: string; format_type: number }): string | null {
  if (sticker.format_type === StickerFormatType.Lottie) return null;
  return `/cdn/stickers/${sticker.id}.${sticker.format_type === StickerFormatType.GIF ? "gif" : "png"}`;
}

/** A name to start from, from the uploaded file's: an emoji's may hold only letters, digits and underscores. */
export function nameFromFile(filename: string, kind: "emoji" | "sticker"): string {
  const base = filename.replace(/\.[^.]*$/, "");
  return kind === "emoji" ? base.replace(/[^A-Za-z0-9_]+/g, "_").slice(0, EMOJI_NAME_MAX) : base.slice(0, STICKER_NAME_MAX);
}

/** "12 of 50" */
export function slotText(slot: SlotUse): string {
  return `${slot.used} of ${slot.available}`;
}
