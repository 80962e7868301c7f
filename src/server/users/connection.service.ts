import type { Connection } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange, type ChangeContext } from "~/server/events/change.ts";
import { isConnectionListed } from "./connection-sunsets.ts";
import { toConnectionObject, type ConnectionObject } from "./connection.dto.ts";
import type { TConnectionAdd } from "./connection.schema.ts";

/**
 * GET /users/@me/connections (spec 4.9, 9): the caller's connected accounts, without the
 * kinds being retired once their date has passed (connection-sunsets.ts). Bots have none.
 */
export async function listCurrentUserConnections(ctx: ServiceContext): Promise<ConnectionObject[]> {
  const now = new Date(Date.now());
  const rows = (await readUserConnections(ctx.db, ctx.actor.userId)).filter((row) => isConnectionListed(row, now));
  if (rows.length === 0) return [];
  const integrations = await ctx.db.integration.findMany({
    where: { userId: ctx.actor.userId, type: { in: [...new Set(rows.map((row) => row.type))] } },
    include: { guild: { select: { id: true, name: true, icon: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((row) =>
    toConnectionObject(
      row,
      integrations.filter((integration) => integration.type === row.type && integration.accountId === row.id),
    ),
  );
}

/** Every connection of a user, oldest first, listed or not (the operator's view). */
export function readUserConnections(db: Db, userId: string): Promise<Connection[]> {
  return db.connection.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { type: "asc" }, { id: "asc" }] });
}

/**
 * Links a user's account on another service, or updates the link (the operator's path: the
 * platform does this through OAuth2 with the service). Bots have no connections.
 */
export async function addConnection(ctx: ChangeContext, input: TConnectionAdd): Promise<Connection> {
  const user = await ctx.db.user.findUnique({ where: { id: input.user_id }, select: { bot: true } });
  if (!user) throw new ApiError("UNKNOWN_USER");
  if (user.bot) throw invalidField(["user_id"], "BASE_TYPE_INVALID", "Bots have no connections.");
  const fields = {
    name: input.name,
    verified: input.verified,
    revoked: input.revoked,
    visibility: input.visibility,
    friendSync: input.friend_sync,
    showActivity: input.show_activity,
    twoWayLink: input.two_way_link,
    ...(input.created_at && { createdAt: new Date(input.created_at) }),
  };
  return runChange(ctx, ({ tx }) =>
    tx.connection.upsert({
      where: { userId_type_id: { userId: input.user_id, type: input.type, id: input.id } },
      create: { userId: input.user_id, type: input.type, id: input.id, ...fields },
      update: fields,
    }),
  );
}

/** Unlinks one connection; false when there was none. */
export async function removeConnection(ctx: ChangeContext, key: { userId: string; type: string; id: string }): Promise<boolean> {
  const { count } = await runChange(ctx, ({ tx }) => tx.connection.deleteMany({ where: key }));
  return count > 0;
}
