import { ChannelType } from "discord-api-types/v10";
import { invalidField } from "~/server/errors.ts";

/**
 * Channel types named as text channels are on the platform: lower case, words joined by
 * dashes. Voice and stage channels and categories keep their names as typed.
 */
const TEXT_NAMED_TYPES: ReadonlySet<number> = new Set([ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildForum, ChannelType.GuildMedia]);

// ASCII punctuation such names drop ("Joey's Room" is #joeys-room); dashes and underscores stay.
const DROPPED_PUNCTUATION = /[!"#$%&'()*+,./:;<=>?@[\\\]^`{|}~]/g;

/**
 * The name a channel of `type` is saved under: for text-like channels lower case, without
 * ASCII punctuation, each run of spaces and dashes one dash, none at either end.
 */
export function normalizeChannelName(type: number, name: string): string {
  if (!TEXT_NAMED_TYPES.has(type)) return name.trim();
  return name
    .toLowerCase()
    .replace(DROPPED_PUNCTUATION, "")
    .replace(/[\s-]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The name to store, or BASE_TYPE_BAD_LENGTH when nothing of it is left (a name of only punctuation). */
export function savedChannelName(type: number, name: string): string {
  const saved = normalizeChannelName(type, name);
  if (saved === "") throw invalidField(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.");
  return saved;
}
