import type { Emoji } from "~/generated/prisma/client.ts";
import type { FieldError } from "~/server/errors.ts";

// A guild's onboarding options and welcome channels may show one of its custom emojis. They store
// its id; what they show is the emoji as the guild has it now.

/** A custom emoji as a guild's onboarding or welcome screen shows it. */
export type SettingEmoji = Pick<Emoji, "id" | "name" | "animated">;

/** The guild's emoji `emojiId` as it is now (renamed with it), or null once deleted. */
export function currentEmoji(guildEmojis: readonly Emoji[], emojiId: string): SettingEmoji | null {
  const emoji = guildEmojis.find((row) => row.id === emojiId);
  return emoji ? { id: emoji.id, name: emoji.name, animated: emoji.animated } : null;
}

/**
 * The custom emoji an onboarding option or a welcome channel names: one of the guild's own, with
 * its stored name and animation (what the caller sent for those is not kept), or the field error
 * for an id that names none of the guild's emojis, as the platform refuses it.
 */
export function settingEmoji(guildEmojis: readonly Emoji[], emojiId: string): { emoji: SettingEmoji } | { error: FieldError } {
  const emoji = currentEmoji(guildEmojis, emojiId);
  return emoji ? { emoji } : { error: { code: "EMOJI_INVALID", message: "Invalid emoji" } };
}
