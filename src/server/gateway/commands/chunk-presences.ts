import type { GatewayGuildMembersChunkPresence } from "discord-api-types/v10";
import type { Db } from "~/server/db/client.ts";

/**
 * The presences a GUILD_MEMBERS_CHUNK carries for these members of the guild, when asked
 * with GUILD_PRESENCES. The platform leaves offline members out, and no presence is stored
 * yet, so every member is offline: the list is empty until presences are kept.
 */
export function presencesOf(_db: Db, _guildId: string, _userIds: readonly string[]): Promise<GatewayGuildMembersChunkPresence[]> {
  return Promise.resolve([]);
}
