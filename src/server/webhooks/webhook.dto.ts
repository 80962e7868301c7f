import { WebhookType } from "discord-api-types/v10";
import { publicUrl } from "~/env.ts";
import type { User, Webhook } from "~/generated/prisma/client.ts";
import type { Tx } from "~/server/db/client.ts";
import { toUserObject, type UserObject } from "~/server/users/user.dto.ts";

/** Where a channel follower webhook's messages come from (spec 2.6), looked up by the caller. */
export type WebhookSource = { guild: { id: string; icon: string | null; name: string } | null; channel: { id: string; name: string } | null };

export type WebhookObject = {
  id: string;
  type: number;
  guild_id: string | null;
  channel_id: string | null;
  user?: UserObject;
  name: string;
  avatar: string | null;
  application_id: string | null;
  token?: string;
  url?: string;
  source_guild?: WebhookSource["guild"];
  source_channel?: WebhookSource["channel"];
};

/** The URL a webhook is executed at, as the platform hands it out with the token. */
function webhookUrl(row: Pick<Webhook, "id" | "token">): string {
  return publicUrl(`/api/webhooks/${row.id}/${row.token ?? ""}`);
}

/**
 * The webhook object (spec 2.6). `creator` is omitted for the token forms; the token and URL
 * only where the platform returns them: incoming webhooks, to managers or the token holder.
 */
export function toWebhookObject(row: Webhook, extra: { creator?: User | null; withToken: boolean; source?: WebhookSource }): WebhookObject {
  const object: WebhookObject = {
    id: row.id,
    type: row.type,
    guild_id: row.guildId,
    channel_id: row.channelId,
    ...(extra.creator && { user: toUserObject(extra.creator) }),
    name: row.name ?? "",
    avatar: row.avatar,
    application_id: row.applicationId,
  };
  if (extra.withToken && row.type === WebhookType.Incoming && row.token) {
    object.token = row.token;
    object.url = webhookUrl(row);
  }
  if (row.type === WebhookType.ChannelFollower && extra.source) {
    if (extra.source.guild) object.source_guild = extra.source.guild;
    if (extra.source.channel) object.source_channel = extra.source.channel;
  }
  return object;
}

/** Creators and follower sources of `rows`, looked up at once. */
export async function loadWebhookRefs(db: Tx, rows: readonly Webhook[]) {
  const userIds = [...new Set(rows.map((row) => row.userId).filter((id): id is string => id !== null))];
  const guildIds = [...new Set(rows.map((row) => row.sourceGuildId).filter((id): id is string => id !== null))];
  const channelIds = [...new Set(rows.map((row) => row.sourceChannelId).filter((id): id is string => id !== null))];
  const [users, guilds, channels] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } } }) : [],
    guildIds.length ? db.guild.findMany({ where: { id: { in: guildIds } }, select: { id: true, icon: true, name: true } }) : [],
    channelIds.length ? db.channel.findMany({ where: { id: { in: channelIds } }, select: { id: true, name: true } }) : [],
  ]);
  const usersById = new Map(users.map((user) => [user.id, user]));
  const guildsById = new Map(guilds.map((guild) => [guild.id, guild]));
  const channelsById = new Map(channels.map((channel) => [channel.id, channel]));
  return {
    creatorOf: (row: Webhook) => (row.userId ? (usersById.get(row.userId) ?? null) : null),
    sourceOf: (row: Webhook): WebhookSource => ({
      guild: row.sourceGuildId ? (guildsById.get(row.sourceGuildId) ?? null) : null,
      channel: row.sourceChannelId ? (channelsById.get(row.sourceChannelId) ?? null) : null,
    }),
  };
}
