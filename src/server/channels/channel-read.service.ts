// Reading channels: the access a caller has to one, and the channel reads that need no more.
import { PermissionFlagsBits } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { accessIn, channelPermissions, loadGuildAccess, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import type { ChannelObject, ChannelRow } from "./channel.dto.ts";

const P = PermissionFlagsBits;

export type ChannelAccess = { access: GuildAccess; channel: ChannelRow; permissions: bigint };

/** The caller's permissions in one of the guild's channels, overwrites included. */
export function permissionsIn(access: GuildAccess, channel: ChannelRow): bigint {
  return channelPermissions(access, { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) });
}

/** A guild channel the caller can see. Unknown → 10003; not a member, or hidden → 50001. */
export async function loadChannelAccess(ctx: ServiceContext, channelId: string): Promise<ChannelAccess> {
  const cache = stateCache(ctx.db);
  const guildId = await cache.guildIdOfChannel(channelId);
  const state = guildId ? await cache.guild(guildId, ctx.actor.userId) : null;
  const channel = (await state?.channels())?.byId.get(channelId);
  if (!state || !channel) throw new ApiError("UNKNOWN_CHANNEL");
  const access = await accessIn(state, ctx.actor);
  const permissions = permissionsIn(access, channel);
  if (!hasPermission(permissions, P.ViewChannel)) throw new ApiError("MISSING_ACCESS");
  return { access, channel, permissions };
}

/** GET /guilds/{guild.id}/channels (spec 4.2, 9): no threads, and only channels the caller can view. */
export async function listGuildChannels(ctx: ServiceContext, input: { guildId: string }): Promise<ChannelObject[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const channels = await access.state.channels();
  // Since 16 November 2026 the list omits channels without VIEW_CHANNEL (spec 9).
  return channels.rows.filter((row) => hasPermission(permissionsIn(access, row), P.ViewChannel)).map((row) => channels.objects.get(row.id)!);
}

/** GET /channels/{channel.id}: members who can view the channel. */
export async function getChannel(ctx: ServiceContext, input: { channelId: string }): Promise<ChannelObject> {
  const { access, channel } = await loadChannelAccess(ctx, input.channelId);
  return (await access.state.channels()).objects.get(channel.id)!;
}
