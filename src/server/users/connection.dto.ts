import type { Connection, Guild, Integration } from "~/generated/prisma/client.ts";

export type ConnectionIntegration = Integration & { guild: Pick<Guild, "id" | "name" | "icon"> };

/** The connection object; `integrations` are the guild integrations made from this account (Twitch, YouTube). */
export function toConnectionObject(row: Connection, integrations: readonly ConnectionIntegration[]) {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    verified: row.verified,
    revoked: row.revoked,
    visibility: row.visibility,
    friend_sync: row.friendSync,
    show_activity: row.showActivity,
    two_way_link: row.twoWayLink,
    integrations: integrations.map((integration) => ({
      id: integration.id,
      type: integration.type,
      account: { id: integration.accountId, name: integration.accountName },
      guild: { id: integration.guild.id, name: integration.guild.name, icon: integration.guild.icon },
    })),
  };
}

export type ConnectionObject = ReturnType<typeof toConnectionObject>;
