import type { Db } from "~/server/db/client.ts";

/** A custom emoji as a message or reaction names it. */
export type UsableEmoji = { id: string; name: string; animated: boolean; guildId: string | null };

/** The role ids an emoji row is restricted to (empty: everyone). */
export function emojiRoleIds(roles: string): string[] {
  return JSON.parse(roles) as string[];
}

/**
 * The custom emoji `emojiId` if this user may use it: an available emoji of a guild they are a
 * member of (holding one of its roles when it is restricted to some that still exist), or an
 * emoji of the application they act for; null otherwise, as for an unknown emoji.
 */
export async function findUsableEmoji(db: Db, emojiId: string, user: { userId: string; applicationId: string | null }): Promise<UsableEmoji | null> {
  const emoji = await db.emoji.findUnique({ where: { id: emojiId } });
  if (!emoji) return null;
  const usable = { id: emoji.id, name: emoji.name, animated: emoji.animated, guildId: emoji.guildId };
  if (emoji.applicationId !== null) return emoji.applicationId === user.applicationId ? usable : null;
  if (!emoji.guildId || !emoji.available) return null;
  const member = await db.member.findUnique({
    where: { guildId_userId: { guildId: emoji.guildId, userId: user.userId } },
    select: { roles: { select: { roleId: true } } },
  });
  if (!member) return null;
  // Deleted roles are skipped, as the emoji object leaves them out: with none left, everyone may use it.
  const stored = emojiRoleIds(emoji.roles);
  const restrictedTo = stored.length > 0 ? await db.role.findMany({ where: { guildId: emoji.guildId, id: { in: stored } }, select: { id: true } }) : [];
  if (restrictedTo.length > 0 && !member.roles.some((held) => restrictedTo.some((role) => role.id === held.roleId))) return null;
  return usable;
}
