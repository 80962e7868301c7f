// Webhooks that go with what they belong to: a deleted channel, an integration removed from a
// guild. Called inside other domains' changes, so this file imports no service.
import { GatewayDispatchEvents } from "discord-api-types/v10";
import { Prisma } from "~/generated/prisma/client.ts";
import type { Tx } from "~/server/db/client.ts";
import type { Change } from "~/server/events/change.ts";
import { removeStoredFiles } from "~/server/images/file-removal.ts";
import { imageFolder, imagePath } from "~/server/images/image.service.ts";
import { avatarHashOf } from "~/server/messages/message.dto.ts";

/**
 * Webhooks Update for each channel (spec 6): what the platform sends when a channel's webhooks
 * change. Every webhook with a channel is in that channel's guild.
 */
export async function announceWebhooksUpdate(change: Change, guildId: string | null, channelIds: Iterable<string | null>): Promise<void> {
  if (!guildId) return;
  for (const channelId of new Set(channelIds)) {
    if (channelId) await change.emit(GatewayDispatchEvents.WebhooksUpdate, { guild_id: guildId, channel_id: channelId });
  }
}

/**
 * Every avatar file of these webhooks: the one each has now, and older ones their messages were
 * posted under (a replaced avatar stays while messages show it). Read before they are deleted.
 */
export async function webhookAvatarPaths(tx: Tx, webhookIds: readonly string[]): Promise<string[]> {
  if (webhookIds.length === 0) return [];
  const ids = Prisma.join(webhookIds);
  const current = await tx.webhook.findMany({ where: { id: { in: [...webhookIds] }, avatar: { not: null } }, select: { id: true, avatar: true } });
  const posted = await tx.$queryRaw<{ webhookId: string; authorAvatarUrl: string }[]>`
    SELECT DISTINCT "webhookId", "authorAvatarUrl" FROM "Message" WHERE "webhookId" IN (${ids}) AND "authorAvatarUrl" IS NOT NULL`;
  const hashes = [
    ...current.map((row) => ({ id: row.id, hash: row.avatar })),
    ...posted.map((row) => ({ id: row.webhookId, hash: avatarHashOf(row.webhookId, row.authorAvatarUrl) })),
  ];
  return hashes.flatMap(({ id, hash }) => (hash ? [imagePath(imageFolder("avatars", id), hash)] : []));
}

/** Whether messages of a webhook were posted under this avatar of it, which then stays on the CDN with them. */
export async function isAvatarPostedUnder(tx: Tx, webhookId: string, hash: string): Promise<boolean> {
  const url = { contains: `/cdn/avatars/${webhookId}/${hash}.` };
  return (await tx.message.findFirst({ where: { webhookId, authorAvatarUrl: url }, select: { id: true } })) !== null;
}

/** Deletes webhooks in the caller's change with their avatars' files; no event (the callers announce). */
export async function deleteWebhookRows(change: Change, webhookIds: readonly string[]): Promise<number> {
  await removeStoredFiles(change, await webhookAvatarPaths(change.tx, webhookIds));
  return (await change.tx.webhook.deleteMany({ where: { id: { in: [...webhookIds] } } })).count;
}

async function dropWebhooks(change: Change, guildId: string, where: Prisma.WebhookWhereInput): Promise<void> {
  const rows = await change.tx.webhook.findMany({ where: { ...where, guildId }, select: { id: true, channelId: true } });
  if (rows.length === 0) return;
  await deleteWebhookRows(
    change,
    rows.map((row) => row.id),
  );
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
