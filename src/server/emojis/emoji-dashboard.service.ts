// What the Emoji & Stickers page reads beyond the REST objects: each emoji with why the viewer
// may not edit it, the tier's slots, and why they may not add one, decided by the rules the
// emoji service enforces (expression-rules.ts).
import type { ServiceContext } from "~/server/context.ts";
import { reasonOf } from "~/server/permissions/denial.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";
import type { EmojiObject } from "./emoji.dto.ts";
import { listGuildEmojis } from "./emoji.service.ts";
import { createExpressionDenial, emojiSlotDenial, emojiSlots, manageExpressionDenial } from "./expression-rules.ts";

/** Used and available slots of one kind, and why no more fit (null while some are free). */
export type SlotUse = { used: number; available: number; full: string | null };

type EmojiRow = { emoji: EmojiObject; denial: string | null };

export type EmojiRows = {
  /** Why the viewer may not upload an emoji; null when they may. */
  create: string | null;
  slots: { static: SlotUse; animated: SlotUse };
  rows: EmojiRow[];
  /** The roles an emoji may be limited to: every role but @everyone, highest first. */
  roles: { id: string; name: string; color: number }[];
};

/** The guild's emojis in upload order, each with why the viewer may not edit or delete it, and the tier's slots. */
export async function listEmojisForDashboard(ctx: ServiceContext, input: { guildId: string }): Promise<EmojiRows> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const emojis = await listGuildEmojis(ctx, input);
  const creators = new Map(access.state.expressions.emojis.map((row) => [row.id, row.userId]));
  const animated = emojis.filter((emoji) => emoji.animated).length;
  const used = { static: emojis.length - animated, animated };
  const tier = access.guild.premiumTier;
  const slot = (kind: "static" | "animated"): SlotUse => ({
    used: used[kind],
    available: emojiSlots(tier),
    full: reasonOf(emojiSlotDenial(tier, used, kind === "animated")),
  });
  return {
    create: reasonOf(createExpressionDenial(access)),
    slots: { static: slot("static"), animated: slot("animated") },
    rows: emojis.map((emoji) => ({ emoji, denial: reasonOf(manageExpressionDenial(access, creators.get(emoji.id) ?? null)) })),
    roles: access.roles
      .filter((role) => role.id !== access.guild.id)
      .toReversed()
      .map((role) => ({ id: role.id, name: role.name, color: role.color })),
  };
}
