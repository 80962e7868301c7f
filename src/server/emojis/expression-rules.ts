// Who may add, edit and remove a guild's emojis and stickers, and how many the guild holds: one
// pure rule each, which the services enforce and the dashboard shows.
import { PermissionFlagsBits } from "discord-api-types/v10";
import { missing, type Denial } from "~/server/permissions/denial.ts";
import type { GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";

/** Static emoji slots by premium tier 0-3; animated emojis have as many again. */
const EMOJI_SLOTS = [50, 100, 150, 250] as const;
/** Sticker slots by premium tier 0-3. */
const STICKER_SLOTS = [5, 15, 30, 60] as const;
/** Emojis an application may own. */
export const APPLICATION_EMOJI_MAX = 2000;

const atTier = (slots: readonly number[], tier: number) => slots[Math.min(Math.max(tier, 0), slots.length - 1)]!;

/** Emoji slots of each kind (static, animated) at a premium tier. */
export function emojiSlots(premiumTier: number): number {
  return atTier(EMOJI_SLOTS, premiumTier);
}

export function stickerSlots(premiumTier: number): number {
  return atTier(STICKER_SLOTS, premiumTier);
}

/** Adding an emoji or sticker needs CREATE_GUILD_EXPRESSIONS (MANAGE_GUILD_EXPRESSIONS does not imply it). */
export function createExpressionDenial(access: GuildAccess): Denial | null {
  return missing(access, PermissionFlagsBits.CreateGuildExpressions);
}

/**
 * Editing or removing one: MANAGE_GUILD_EXPRESSIONS for any, or CREATE_GUILD_EXPRESSIONS for
 * one the member uploaded themselves.
 */
export function manageExpressionDenial(access: GuildAccess, creatorId: string | null): Denial | null {
  if (hasPermission(access.permissions, PermissionFlagsBits.ManageGuildExpressions)) return null;
  if (creatorId === access.userId && hasPermission(access.permissions, PermissionFlagsBits.CreateGuildExpressions)) return null;
  return {
    error: "MISSING_PERMISSIONS",
    reason: creatorId === access.userId ? "Needs Create expressions." : "Needs Manage expressions (or Create expressions, for ones you uploaded).",
  };
}

/** 30008 when the guild's slots of that kind (static or animated) are full at its tier. */
export function emojiSlotDenial(premiumTier: number, used: { static: number; animated: number }, animated: boolean): Denial | null {
  const slots = emojiSlots(premiumTier);
  if ((animated ? used.animated : used.static) < slots) return null;
  return { error: "MAX_EMOJIS", reason: `All ${slots} ${animated ? "animated" : "static"} emoji slots of this server's tier are used.` };
}

/** 30039 when the guild's sticker slots are full at its tier. */
export function stickerSlotDenial(premiumTier: number, used: number): Denial | null {
  const slots = stickerSlots(premiumTier);
  return used < slots ? null : { error: "MAX_STICKERS", reason: `All ${slots} sticker slots of this server's tier are used.` };
}
