import type { ServiceContext } from "~/server/context.ts";
import { authenticate } from "~/server/auth/tokens.service.ts";
import { isUniqueViolation } from "~/server/db/prisma-errors.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";
import { toMemberObject, type MemberObject } from "./member.dto.ts";
import { addMemberDenial, enforce, roleChangeDenial } from "./member-rules.ts";
import type { TMemberAddBody } from "./member.schema.ts";
import { joinGuild } from "./membership.ts";

/**
 * PUT /guilds/{guild.id}/members/{user.id} (spec 4.2, 5): a bot adds the user whose OAuth2
 * token with `guilds.join` its own application obtained. The bot needs CREATE_INSTANT_INVITE,
 * and the permission of each field it sets. Null when the user already is a member (204).
 */
export async function addMemberWithToken(ctx: ServiceContext, input: { guildId: string; userId: string; body: TMemberAddBody }): Promise<MemberObject | null> {
  const { body } = input;
  const access = await loadGuildAccess(ctx, input.guildId);
  const grant = await authenticate(ctx.db, `Bearer ${body.access_token}`);
  const isValidGrant =
    grant !== null &&
    grant.userId === input.userId &&
    grant.scopes.has("guilds.join") &&
    grant.applicationId !== null &&
    grant.applicationId === ctx.actor.applicationId;
  if (!isValidGrant) throw new ApiError("INVALID_OAUTH2_TOKEN");
  enforce(addMemberDenial(access, body));
  const roleIds = [...new Set(body.roles ?? [])];
  for (const roleId of roleIds) {
    const role = access.roles.find((r) => r.id === roleId);
    if (!role) throw new ApiError("UNKNOWN_ROLE");
    enforce(roleChangeDenial(access, role));
  }
  try {
    const row = await runChange(ctx, (change) =>
      joinGuild(change, { guild: access.guild, userId: input.userId, roleIds, nick: body.nick, mute: body.mute ?? false, deaf: body.deaf ?? false }),
    );
    return row && toMemberObject(row);
  } catch (error) {
    // A concurrent request added them first: they are a member now, as with any repeat.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}
