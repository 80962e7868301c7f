import { StickerType, type APISticker } from "discord-api-types/v10";
import type { Sticker } from "~/generated/prisma/client.ts";
import type { UserObject } from "~/server/users/user.dto.ts";

/** A guild sticker object; `user` only where the caller may see who uploaded it. */
export type StickerObject = Omit<APISticker, "user" | "pack_id" | "sort_value" | "guild_id"> & { guild_id: string; user?: UserObject };

export function toStickerObject(row: Sticker, user?: UserObject): StickerObject {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tags: row.tags,
    type: StickerType.Guild,
    format_type: row.formatType,
    available: row.available,
    guild_id: row.guildId,
    ...(user && { user }),
  };
}

/** The stored path of a sticker's file, served at `/stickers/{id}.{png|gif|json}`. */
export function stickerFilePath(stickerId: string): string {
  return `stickers/${stickerId}`;
}
