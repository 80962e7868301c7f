import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { loadChannelAccess } from "~/server/channels/channel-read.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { channelPermissions, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { sortChannels } from "~/server/channels/channel.dto.ts";
import { mentionListsOf, type MentionLists } from "~/server/messages/message-dashboard.service.ts";
import type { MessageObject } from "~/server/messages/message.dto.ts";
import { sendTestMessage } from "./webhook-execute.service.ts";
import type { TWebhookTestMessageInput } from "./webhook-execute.schema.ts";
import type { WebhookObject } from "./webhook.dto.ts";
import { WEBHOOK_CHANNEL_TYPES } from "./webhook.schema.ts";
import { listChannelWebhooks } from "./webhook.service.ts";

export type ChannelWebhooksView = {
  channel: { id: string; name: string; type: number; guildId: string };
  /** Why the caller cannot manage this channel's webhooks; null when they can. */
  blockedReason: string | null;
  webhooks: WebhookObject[];
  /** Channels a webhook may move to: of this guild, able to hold webhooks, managed by the caller. */
  moveTargets: { id: string; name: string }[];
};

/**
 * A channel's webhooks for the dashboard, with what the caller may do: the list needs
 * MANAGE_WEBHOOKS in the channel, as GET /channels/{id}/webhooks does.
 */
export async function loadChannelWebhooksView(ctx: ServiceContext, input: { channelId: string }): Promise<ChannelWebhooksView> {
  const { access, channel, permissions } = await loadChannelAccess(ctx, input.channelId);
  const view = { id: channel.id, name: channel.name, type: channel.type, guildId: access.guild.id };
  if (!WEBHOOK_CHANNEL_TYPES.has(channel.type)) return { channel: view, blockedReason: "This kind of channel has no webhooks", webhooks: [], moveTargets: [] };
  if (!hasPermission(permissions, P.ManageWebhooks))
    return { channel: view, blockedReason: "Needs Manage Webhooks in this channel", webhooks: [], moveTargets: [] };
  const { rows } = await access.state.channels();
  const moveTargets = sortChannels(rows)
    .filter((row) => WEBHOOK_CHANNEL_TYPES.has(row.type))
    .filter((row) => {
      const inRow = channelPermissions(access, { type: row.type, overwrites: toOverwriteInputs(row.overwrites) });
      return hasPermission(inRow, P.ViewChannel) && hasPermission(inRow, P.ManageWebhooks);
    })
    .map((row) => ({ id: row.id, name: row.name }));
  return { channel: view, blockedReason: null, webhooks: await listChannelWebhooks(ctx, input), moveTargets };
}

/**
 * The dashboard's test message, posted through the webhook, with what its mentions name: the
 * dialog shows it as the channel's Messages view does.
 */
export async function sendTestForDashboard(ctx: ServiceContext, input: TWebhookTestMessageInput): Promise<{ message: MessageObject } & MentionLists> {
  const message = await sendTestMessage(ctx, input);
  const { access } = await loadChannelAccess(ctx, message.channel_id);
  return { message, ...(await mentionListsOf(ctx, access, [message])) };
}
