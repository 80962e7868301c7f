// Webhooks that go with what they belong to: a deleted channel, an integration removed from a
// guild. Called inside other domains' changes, so this file imports no service.
import { GatewayDispatchEvents } from "discord-api-types/v10";
import type { Prisma } from "~/generated/prisma/client.ts";
import type { Change } from "~/server/events/change.ts";

/** Webhooks Update for each channel (spec 6): what the platform sends when a channel's webhooks change. */
export async function announceWebhooksUpdate(change: Change, guildId: string | null, channelIds: Iterable<string | null>): Promise<void> {
  for (const channelId of new Set(channelIds)) {
    if (channelId) await change.emit(GatewayDispatchEvents.WebhooksUpdate, guildId, { guild_id: guildId, channel_id: channelId });
  }
}

async function dropWebhooks(change: Change, guildId: string, where: Prisma.WebhookWhereInput): Promise<void> {
  const rows = await change.tx.webhook.findMany({ where: { ...where, guildId }, select: { id: true, channelId: true } });
  if (rows.length === 0) return;
  await change.tx.webhook.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } });
  await announceWebhooksUpdate(
    change,
    guildId,
    rows.map((row) => row.channelId),
  );
}

/** A channel being deleted takes its webhooks (the foreign key would too, but silently). */
export async function dropChannelWebhooks(change: Change, guildId: string, channelId: string): Promise<void> {
  await dropWebhooks(change, guildId, { channelId });
}

/** An integration removed from a guild takes the webhooks its application made there (spec 4.2). */
export async function dropApplicationWebhooks(change: Change, guildId: string, applicationId: string): Promise<void> {
  await dropWebhooks(change, guildId, { applicationId });
}
