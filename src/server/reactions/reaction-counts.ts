import type { APIReaction } from "discord-api-types/v10";
import type { Tx } from "~/server/db/client.ts";

/**
 * The `reactions` of messages as `viewerId` reads them: each emoji once, in the order it was
 * first added, with its count and whether the viewer is among those who reacted (`me`).
 * Super reactions are not stored, so their counts are 0.
 */
export async function reactionsOf(db: Tx, messageIds: readonly string[], viewerId: string): Promise<Map<string, APIReaction[]>> {
  const byMessage = new Map<string, APIReaction[]>();
  if (messageIds.length === 0) return byMessage;
  const where = { messageId: { in: [...messageIds] } };
  // Grouped by name too: a custom emoji renamed between two reactions is one emoji, under its first name.
  const [groups, mine] = await Promise.all([
    db.reaction.groupBy({ by: ["messageId", "emojiKey", "emojiId", "emojiName", "animated"], where, _count: { _all: true }, _min: { createdAt: true } }),
    db.reaction.findMany({ where: { ...where, userId: viewerId }, select: { messageId: true, emojiKey: true } }),
  ]);
  const mineKeys = new Set(mine.map((row) => `${row.messageId}/${row.emojiKey}`));
  groups.sort((a, b) => a._min.createdAt!.getTime() - b._min.createdAt!.getTime());
  const seen = new Map<string, APIReaction>();
  for (const group of groups) {
    const key = `${group.messageId}/${group.emojiKey}`;
    const count = group._count._all;
    const known = seen.get(key);
    if (known) {
      known.count += count;
      known.count_details.normal += count;
      continue;
    }
    const reaction: APIReaction = {
      emoji: group.emojiId ? { id: group.emojiId, name: group.emojiName, animated: group.animated } : { id: null, name: group.emojiName },
      count,
      count_details: { burst: 0, normal: count },
      burst_colors: [],
      me: mineKeys.has(key),
      me_burst: false,
    };
    seen.set(key, reaction);
    const list = byMessage.get(group.messageId) ?? [];
    list.push(reaction);
    byMessage.set(group.messageId, list);
  }
  return byMessage;
}
