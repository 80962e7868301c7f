import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";

export type CustomReactionEmoji = { id: string; name: string; animated: boolean; guildId: string | null };

/** A custom emoji the caller may react with: 10014 when there is none they can use. */
export async function resolveCustomEmoji(_ctx: ServiceContext, _emojiId: string): Promise<CustomReactionEmoji> {
  throw new ApiError("UNKNOWN_EMOJI");
}
