// Which channels and threads a bot can view, by the permission rules REST applies
// (permissions/guild-access.ts, threads/thread-access.ts): routing keeps no copy of them.
import { PermissionFlagsBits } from "discord-api-types/v10";
import type { ChannelRow } from "~/server/channels/channel.dto.ts";
import { accessIn, accessOfMember, channelPermissions, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission, type PermissionOverwriteInput } from "~/server/permissions/permissions.ts";
import type { GuildState } from "~/server/state/guild-state.ts";
import { canSeeThread, threadPermissions } from "~/server/threads/thread-access.ts";

/** The bot's access in a guild whose state is loaded; null when it is not a member. */
export async function botAccess(state: GuildState, botUserId: string): Promise<GuildAccess | null> {
  if (!(await state.member(botUserId))) return null;
  return accessIn(state, { userId: botUserId });
}

/** The access of those of the bots that are members, read together (one event routes to many bots). */
export async function botAccesses(state: GuildState, botUserIds: readonly string[]): Promise<Map<string, GuildAccess>> {
  const members = await state.members(botUserIds);
  return new Map([...members].map(([botUserId, member]) => [botUserId, accessOfMember(state, botUserId, member)]));
}

/** VIEW_CHANNEL (and `needs`, when given) in a channel that is not a thread, overwrites and timeouts applied. */
export function canViewChannel(access: GuildAccess, channel: { type: number; overwrites: readonly PermissionOverwriteInput[] }, needs = 0n): boolean {
  return hasPermission(channelPermissions(access, channel), PermissionFlagsBits.ViewChannel | needs);
}

/** Whether a thread of `parent` shows to the bot: VIEW_CHANNEL on the parent, and for a private thread membership or MANAGE_THREADS. */
export function canViewThread(access: GuildAccess, parent: ChannelRow, threadType: number, isMember: boolean): boolean {
  return canSeeThread(threadPermissions(access, parent, threadType), threadType, isMember);
}
