// What the Emoji & Stickers page reads of stickers beyond the REST objects: each with why the
// viewer may not edit it, the tier's slots, and why they may not add one (expression-rules.ts).
import type { ServiceContext } from "~/server/context.ts";
import type { SlotUse } from "~/server/emojis/emoji-dashboard.service.ts";
import { createExpressionDenial, manageExpressionDenial, stickerSlotDenial, stickerSlots } from "~/server/emojis/expression-rules.ts";
import { reasonOf } from "~/server/permissions/denial.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";
import type { StickerObject } from "./sticker.dto.ts";
import { listGuildStickers } from "./sticker.service.ts";

export type StickerRows = {
  /** Why the viewer may not upload a sticker; null when they may. */
  create: string | null;
  slots: SlotUse;
  rows: { sticker: StickerObject; denial: string | null }[];
};

/** The guild's stickers in upload order, each with why the viewer may not edit or delete it, and the tier's slots. */
export async function listStickersForDashboard(ctx: ServiceContext, input: { guildId: string }): Promise<StickerRows> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const stickers = await listGuildStickers(ctx, input);
  const creators = new Map(access.state.expressions.stickers.map((row) => [row.id, row.userId]));
  const tier = access.guild.premiumTier;
  return {
    create: reasonOf(createExpressionDenial(access)),
    slots: { used: stickers.length, available: stickerSlots(tier), full: reasonOf(stickerSlotDenial(tier, stickers.length)) },
    rows: stickers.map((sticker) => ({ sticker, denial: reasonOf(manageExpressionDenial(access, creators.get(sticker.id) ?? null)) })),
  };
}
