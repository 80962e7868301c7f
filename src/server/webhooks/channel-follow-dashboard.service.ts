import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { sortChannels } from "~/server/channels/channel.dto.ts";
import type { ServiceContext } from "~/server/context.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import { hasAll } from "~/server/permissions/permissions.ts";
import { loadChannelNotThread } from "~/server/threads/thread-access.ts";
import { FOLLOW_TARGET_TYPES } from "./channel-follow.service.ts";

export type FollowTargets = {
  /** Why this channel cannot be followed; null when it can. */
  blockedReason: string | null;
  /** Per guild of the user's, the channels followChannel would accept as targets. */
  guilds: { id: string; name: string; channels: { id: string; name: string }[] }[];
};

/**
 * Where the signed-in user could follow an announcement channel into, for the dashboard:
 * text and announcement channels of any of their guilds where they manage webhooks (the
 * channel itself left out). followChannel checks the same again.
 */
export async function loadFollowTargets(ctx: ServiceContext, input: { channelId: string }): Promise<FollowTargets> {
  const source = await loadChannelNotThread(ctx, input.channelId);
  if (source.channel.type !== ChannelType.GuildAnnouncement) return { blockedReason: "Only announcement channels can be followed", guilds: [] };
  const memberships = await ctx.db.member.findMany({ where: { userId: ctx.actor.userId }, select: { guildId: true }, orderBy: { guildId: "asc" } });
  const guilds: FollowTargets["guilds"] = [];
  for (const { guildId } of memberships) {
    const access = await loadGuildAccess(ctx, guildId);
    const { rows } = await access.state.channels();
    const channels = sortChannels(rows)
      .filter((row) => FOLLOW_TARGET_TYPES.includes(row.type) && row.id !== source.channel.id)
      .filter((row) => hasAll(channelPermissions(access, { type: row.type, overwrites: toOverwriteInputs(row.overwrites) }), P.ViewChannel, P.ManageWebhooks))
      .map((row) => ({ id: row.id, name: row.name }));
    if (channels.length > 0) guilds.push({ id: access.guild.id, name: access.guild.name, channels });
  }
  const blockedReason = guilds.length === 0 ? "Needs Manage Webhooks in a text or announcement channel of one of your guilds" : null;
  return { blockedReason, guilds };
}
