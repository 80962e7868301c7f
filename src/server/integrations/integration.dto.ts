import type { APIGuildIntegration, APIGuildIntegrationApplication, OAuth2Scopes } from "discord-api-types/v10";
import type { Application, Integration, User } from "~/generated/prisma/client.ts";
import type { Tx } from "~/server/db/client.ts";
import { toUserObject, type UserObject } from "~/server/users/user.dto.ts";
import type { IntegrationType } from "./integration.schema.ts";

/**
 * The integration object. Which fields are present depends on the type, as the platform
 * sends them: a bot's ("discord") carries its application and scopes, a Twitch or YouTube
 * one its subscriber sync settings, a server subscription one only the common fields.
 * Unlike APIGuildIntegration, `role_id` may be null (no role set) and the application carries
 * `type: null`, as in the platform's own description (docs/wire-differences.md).
 */
export type IntegrationObject = Omit<APIGuildIntegration, "type" | "user" | "role_id" | "application"> & {
  type: IntegrationType;
  user?: UserObject;
  role_id?: string | null;
  application?: APIGuildIntegrationApplication & { type: null; bot?: UserObject };
};

/** The users and applications integration objects name, looked up once for many rows. */
export type IntegrationRefs = { users: ReadonlyMap<string, User>; applications: ReadonlyMap<string, Application> };

export async function loadIntegrationRefs(db: Tx, rows: readonly Integration[]): Promise<IntegrationRefs> {
  const applicationIds = [...new Set(rows.flatMap((row) => (row.applicationId ? [row.applicationId] : [])))];
  const applications = applicationIds.length ? await db.application.findMany({ where: { id: { in: applicationIds } } }) : [];
  const userIds = [...new Set([...rows.flatMap((row) => (row.userId ? [row.userId] : [])), ...applications.map((app) => app.botUserId)])];
  const users = userIds.length ? await db.user.findMany({ where: { id: { in: userIds } } }) : [];
  return { users: new Map(users.map((user) => [user.id, user])), applications: new Map(applications.map((app) => [app.id, app])) };
}

export function toIntegrationObject(row: Integration, refs: IntegrationRefs): IntegrationObject {
  const common = {
    id: row.id,
    type: row.type as IntegrationType,
    name: row.name,
    enabled: row.enabled,
    account: { id: row.accountId, name: row.accountName },
  };
  if (row.type === "guild_subscription") return common;
  const user = row.userId ? refs.users.get(row.userId) : undefined;
  const withUser = { ...common, ...(user && { user: toUserObject(user) }) };
  if (row.type === "discord") {
    const app = row.applicationId ? refs.applications.get(row.applicationId) : undefined;
    const bot = app && refs.users.get(app.botUserId);
    return {
      ...withUser,
      scopes: row.scopes.split(" ").filter(Boolean) as OAuth2Scopes[],
      application: {
        id: row.applicationId ?? row.accountId,
        name: app?.name ?? row.name,
        icon: app?.icon ?? null,
        description: app?.description ?? "",
        type: null,
        ...(bot && { bot: toUserObject(bot) }),
      },
    };
  }
  return {
    ...withUser,
    syncing: row.syncing ?? false,
    role_id: row.roleId,
    revoked: row.revoked,
    ...(row.enableEmoticons !== null && { enable_emoticons: row.enableEmoticons }),
    ...(row.expireBehavior !== null && { expire_behavior: row.expireBehavior }),
    ...(row.expireGracePeriod !== null && { expire_grace_period: row.expireGracePeriod }),
    ...(row.syncedAt && { synced_at: row.syncedAt.toISOString() }),
    ...(row.subscriberCount !== null && { subscriber_count: row.subscriberCount }),
  };
}
