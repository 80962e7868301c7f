import type { ServiceContext } from "~/server/context.ts";
import { findUsableEmoji, type UsableEmoji } from "~/server/emojis/emoji-queries.ts";
import { ApiError } from "~/server/errors.ts";

/** A custom emoji the caller may react with: 10014 when there is none they can use. */
export async function resolveCustomEmoji(ctx: ServiceContext, emojiId: string): Promise<UsableEmoji> {
  const applicationId = ctx.actor.kind === "bot" ? ctx.actor.applicationId : null;
  const emoji = await findUsableEmoji(ctx.db, emojiId, { userId: ctx.actor.userId, applicationId });
  if (!emoji) throw new ApiError("UNKNOWN_EMOJI");
  return emoji;
}
