import { ChannelType, WebhookType } from "discord-api-types/v10";
import type { Guild } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { parseImageData, type ImageData } from "~/server/images/image-data.ts";
import { readOwnedImage } from "~/server/images/image.service.ts";
import { loadChannelNotThread } from "~/server/threads/thread-access.ts";
import { WEBHOOK_NAME_MAX, type TChannelFollowBody } from "./webhook.schema.ts";
import { insertWebhook, requireManageIn } from "./webhook.service.ts";

/** Channels a follower webhook posts crossposts in: text and announcement channels. */
export const FOLLOW_TARGET_TYPES: readonly number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement];

/** The followed channel object: the source channel and the follower webhook made for it. */
export type FollowedChannelObject = { channel_id: string; webhook_id: string };

/** "<guild> #<channel>", as the platform names a follower webhook, cut to a webhook name's 80 characters. */
function followerWebhookName(guildName: string, channelName: string): string {
  return [...`${guildName} #${channelName}`].slice(0, WEBHOOK_NAME_MAX).join("");
}

/** The source guild's icon, copied as the follower webhook's avatar (it lives on under the webhook if the icon changes). */
async function guildIconImage(db: Db, guild: Pick<Guild, "id" | "icon">): Promise<ImageData | null> {
  if (!guild.icon) return null;
  const stored = await readOwnedImage(db, "icons", guild.id, guild.icon);
  return stored && parseImageData(`data:${stored.contentType};base64,${Buffer.from(stored.data).toString("base64")}`);
}

/**
 * POST /channels/{channel.id}/followers: follows an announcement channel (else 50024) the
 * caller can see into a text or announcement channel where they hold MANAGE_WEBHOOKS, in
 * any guild they are in. Makes a channel follower webhook there (no token, named after the
 * source guild and channel, the guild's icon as avatar) under the webhook limits; Webhooks
 * Update and WEBHOOK_CREATE in the target's guild.
 */
export async function followChannel(ctx: ServiceContext, input: { channelId: string; body: TChannelFollowBody }): Promise<FollowedChannelObject> {
  // 10003 unknown, 50001 without VIEW_CHANNEL on the source, 50024 for a thread.
  const source = await loadChannelNotThread(ctx, input.channelId);
  if (source.channel.type !== ChannelType.GuildAnnouncement) throw new ApiError("WRONG_CHANNEL_TYPE");
  const target = await requireManageIn(ctx, input.body.webhook_channel_id);
  if (!FOLLOW_TARGET_TYPES.includes(target.channel.type)) {
    throw invalidField(["webhook_channel_id"], "CHANNEL_TYPE_INVALID", "Followed channels post in text or announcement channels only.");
  }
  const sourceGuild = source.access.guild;
  const avatar = await guildIconImage(ctx.db, sourceGuild);
  const webhook = await runChange(ctx, (change) =>
    insertWebhook(ctx, change, {
      type: WebhookType.ChannelFollower,
      guildId: target.access.guild.id,
      channelId: target.channel.id,
      name: followerWebhookName(sourceGuild.name, source.channel.name),
      avatar,
      token: null,
      source: { guildId: sourceGuild.id, channelId: source.channel.id },
    }),
  );
  return { channel_id: source.channel.id, webhook_id: webhook.id };
}
