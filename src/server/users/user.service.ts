import { GatewayDispatchEvents } from "discord-api-types/v10";
import type { User } from "~/generated/prisma/client.ts";
import { hasScope, type Actor } from "~/server/auth/actor.ts";
import { runChange } from "~/server/events/change.ts";
import { decodeImageField, imageHash } from "~/server/images/image-data.ts";
import { imageFolder, replaceImage } from "~/server/images/image.service.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { countOnlineMembers } from "~/server/presences/presence.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { computeBasePermissions, serializePermissions } from "~/server/permissions/permissions.ts";
import { compareSnowflakes } from "~/server/snowflake/snowflake.ts";
import { toUserObject } from "./user.dto.ts";
import { CURRENT_USER_GUILDS_MAX, type TCurrentUserGuildsQuery, type TModifyCurrentUserBody } from "./user.schema.ts";

/** GET /users/{user.id}: any user's public object, to a bot; 10013 Unknown User. */
export async function getUser(ctx: ServiceContext, userId: string) {
  const user = await ctx.db.user.findUnique({ where: { id: userId } });
  if (!user) throw new ApiError("UNKNOWN_USER");
  return toUserObject(user);
}

/**
 * PATCH /users/@me: a bot changes its username or avatar (a data URI, or null to clear it).
 * USER_UPDATE goes to the bot's own sessions; its members everywhere show the new name, as
 * they are read from the user.
 */
export async function modifyCurrentUser(ctx: ServiceContext, body: TModifyCurrentUserBody) {
  const avatar = body.avatar === undefined ? undefined : body.avatar === null ? null : decodeImageField("avatar", body.avatar);
  const userId = ctx.actor.userId;
  return runChange(ctx, async (change) => {
    const before = await change.tx.user.findUnique({ where: { id: userId } });
    if (!before) throw new ApiError("UNKNOWN_USER");
    const user = await change.tx.user.update({
      where: { id: userId },
      data: { ...(body.username !== undefined && { username: body.username }), ...(avatar !== undefined && { avatar: avatar && imageHash(avatar) }) },
    });
    if (avatar !== undefined) await replaceImage(change, imageFolder("avatars", userId), before.avatar, avatar);
    const object = currentUserObject(ctx.actor, user);
    await change.emit(GatewayDispatchEvents.UserUpdate, object);
    return object;
  });
}

/**
 * GET /users/@me. The e-mail is shown only with the `email` scope or to the user themself; an
 * application sees the premium tier only with `identify.premium` (spec 5), else 0.
 */
export async function getCurrentUser(ctx: ServiceContext) {
  const user = await ctx.db.user.findUnique({ where: { id: ctx.actor.userId } });
  if (!user) throw new ApiError("UNKNOWN_USER");
  return currentUserObject(ctx.actor, user);
}

/** The caller's own user object, as GET /users/@me and USER_UPDATE show it to them. */
function currentUserObject(actor: Actor, user: User) {
  const showEmail = actor.kind === "user" || actor.scopes.has("email");
  const showPremium = hasScope(actor, "identify.premium");
  return {
    ...toUserObject(user),
    mfa_enabled: false,
    locale: "en-US",
    premium_type: showPremium ? user.premiumType : 0,
    ...(showEmail ? { email: user.email, verified: user.email !== null } : {}),
  };
}

/**
 * GET /users/@me/guilds (spec 4.9): partial guilds by id; bots using large bot sharding
 * (max_concurrency above 1) must pass `shard` and get that shard's guilds.
 */
export async function listCurrentUserGuilds(ctx: ServiceContext, query: TCurrentUserGuildsQuery) {
  const { actor } = ctx;
  const app =
    actor.kind === "bot" && actor.applicationId
      ? await ctx.db.application.findUnique({ where: { id: actor.applicationId }, select: { maxConcurrency: true } })
      : null;
  const concurrency = app?.maxConcurrency ?? 1;
  if (concurrency > 1) {
    if (query.shard === undefined) throw invalidField(["shard"], "BASE_TYPE_REQUIRED", "This field is required for bots using large bot sharding.");
    if (query.shard >= concurrency) throw invalidField(["shard"], "NUMBER_TYPE_MAX", `int value should be less than or equal to ${concurrency - 1}.`);
  }
  const limit = query.limit ?? CURRENT_USER_GUILDS_MAX;
  // With only `before`, the platform returns the page just before it, still in ascending order.
  const descending = query.before !== undefined && query.after === undefined;
  const rows = await ctx.db.member.findMany({
    where: { userId: actor.userId, guildId: { ...(query.after && { gt: query.after }), ...(query.before && { lt: query.before }) } },
    select: {
      roles: { select: { role: { select: { permissions: true } } } },
      guild: { include: { roles: { where: { position: 0 }, select: { id: true, permissions: true } } } },
    },
  });
  const shardOf = (id: string) => Number((BigInt(id) >> 22n) % BigInt(concurrency));
  let members = rows.filter((m) => concurrency === 1 || shardOf(m.guild.id) === query.shard);
  members.sort((a, b) => compareSnowflakes(a.guild.id, b.guild.id));
  members = descending ? members.slice(-limit) : members.slice(0, limit);

  const guildIds = members.map((m) => m.guild.id);
  const counts = query.with_counts ? { members: await memberCounts(ctx.db, guildIds), online: await countOnlineMembers(ctx.db, guildIds) } : null;
  return members.map(({ guild, roles }) => {
    const everyone = guild.roles.find((r) => r.id === guild.id);
    const permissions = serializePermissions(
      computeBasePermissions({
        ownerId: guild.ownerId,
        userId: actor.userId,
        everyonePermissions: everyone?.permissions ?? 0n,
        rolePermissions: roles.map((r) => r.role.permissions),
      }),
    );
    return {
      id: guild.id,
      name: guild.name,
      icon: guild.icon,
      banner: guild.banner,
      owner: guild.ownerId === actor.userId,
      permissions,
      // The whole bit set again beside permissions (spec 9).
      permissions_new: permissions,
      features: parseFeatures(guild.features),
      ...(counts && { approximate_member_count: counts.members.get(guild.id) ?? 0, approximate_presence_count: counts.online.get(guild.id) ?? 0 }),
    };
  });
}

async function memberCounts(db: Db, guildIds: string[]): Promise<Map<string, number>> {
  const groups = await db.member.groupBy({ by: ["guildId"], where: { guildId: { in: guildIds } }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.guildId, g._count._all]));
}
