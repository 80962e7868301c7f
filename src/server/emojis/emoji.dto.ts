import type { APIEmoji } from "discord-api-types/v10";
import type { Emoji } from "~/generated/prisma/client.ts";
import type { UserObject } from "~/server/users/user.dto.ts";
import { emojiRoleIds } from "./emoji-queries.ts";

/** A custom emoji object: every field the platform sends for one, `user` only where it is shown. */
export type EmojiObject = Omit<APIEmoji, "id" | "name" | "roles" | "user"> & {
  id: string;
  name: string;
  roles: string[];
  require_colons: boolean;
  managed: boolean;
  animated: boolean;
  available: boolean;
  user?: UserObject;
};

/**
 * Emoji row → the platform's emoji object. `roleIds`: the guild's roles now, so a deleted role
 * drops out of the emoji's list; `user`: its uploader, where the caller may see who that was.
 */
export function toEmojiObject(row: Emoji, roleIds: ReadonlySet<string> | null, user?: UserObject): EmojiObject {
  return {
    id: row.id,
    name: row.name,
    roles: roleIds ? emojiRoleIds(row.roles).filter((id) => roleIds.has(id)) : [],
    require_colons: true,
    managed: false,
    animated: row.animated,
    available: row.available,
    ...(user && { user }),
  };
}

/** The CDN path of an emoji's image, as the platform's: `/emojis/{id}.{png|gif}`. */
export function emojiImagePath(emojiId: string): string {
  return `emojis/${emojiId}`;
}
