import { AuditLogEvent, ChannelType, GatewayDispatchEvents } from "discord-api-types/v10";
import { diffChanges } from "~/server/audit/audit.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { runChange } from "~/server/events/change.ts";
import { toGuildObject } from "~/server/guilds/guild.dto.ts";
import { removeStoredFiles } from "~/server/images/file-removal.ts";
import { disconnectVoiceStates } from "~/server/members/voice.service.ts";
import { attachmentPathsOf } from "~/server/messages/attachments.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { dropChannelWebhooks } from "~/server/webhooks/webhook-removal.ts";
import { CHANNEL_RECORD_KEYS } from "./channel-audit.ts";
import { loadChannelAccess } from "./channel-read.service.ts";
import { deleteChannelDenial } from "./channel-rules.ts";
import { CHANNEL_INCLUDE, THREAD_TYPES, toChannelObject, type ChannelObject } from "./channel.dto.ts";

/** Guild columns that name a channel; deleting the channel clears them. */
const GUILD_CHANNEL_COLUMNS = [
  "afkChannelId",
  "systemChannelId",
  "rulesChannelId",
  "publicUpdatesChannelId",
  "safetyAlertsChannelId",
  "widgetChannelId",
] as const;

/**
 * DELETE /channels/{channel.id}: needs MANAGE_CHANNELS; returns the deleted channel. A
 * category's children stay, without a parent; guild settings naming the channel are cleared.
 */
export async function deleteChannel(ctx: ServiceContext, input: { channelId: string }): Promise<ChannelObject> {
  const { access, channel, permissions } = await loadChannelAccess(ctx, input.channelId);
  const { guild } = access;
  enforce(deleteChannelDenial(access, channel, permissions));
  const deleted = toChannelObject(channel);
  const clearedGuildColumns = Object.fromEntries(GUILD_CHANNEL_COLUMNS.filter((column) => guild[column] === channel.id).map((column) => [column, null]));

  return runChange(ctx, async (change) => {
    const { tx, emit, audit } = change;
    const children = channel.type === ChannelType.GuildCategory ? await tx.channel.findMany({ where: { parentId: channel.id }, include: CHANNEL_INCLUDE }) : [];
    if (children.length) await tx.channel.updateMany({ where: { parentId: channel.id }, data: { parentId: null } });
    // Threads go with their channel, as on the platform, and the files of every message in them.
    const threads = await tx.channel.findMany({ where: { parentId: channel.id, type: { in: THREAD_TYPES } }, select: { id: true } });
    await removeStoredFiles(change, await attachmentPathsOf(tx, { channelId: { in: [channel.id, ...threads.map((thread) => thread.id)] } }));
    await tx.channel.deleteMany({ where: { parentId: channel.id, type: { in: THREAD_TYPES } } });
    await dropChannelWebhooks(change, guild.id, channel.id);
    await tx.channel.delete({ where: { id: channel.id } });
    // Whoever was connected to a deleted voice channel is disconnected.
    await disconnectVoiceStates(change, await tx.voiceState.findMany({ where: { guildId: guild.id, channelId: channel.id } }));
    if (Object.keys(clearedGuildColumns).length) {
      const updated = await tx.guild.update({ where: { id: guild.id }, data: clearedGuildColumns });
      await emit(GatewayDispatchEvents.GuildUpdate, toGuildObject(updated, access.roles, access.state.expressions));
    }
    for (const child of children) await emit(GatewayDispatchEvents.ChannelUpdate, toChannelObject({ ...child, parentId: null }));
    await audit({ guildId: guild.id, actionType: AuditLogEvent.ChannelDelete, targetId: channel.id, changes: diffChanges(deleted, {}, CHANNEL_RECORD_KEYS) });
    await emit(GatewayDispatchEvents.ChannelDelete, deleted);
    return deleted;
  });
}
