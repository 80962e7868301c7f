import { AuditLogEvent, GatewayDispatchEvents, GuildFeature } from "discord-api-types/v10";
import { enforce } from "~/server/permissions/denial.ts";
import { manageGuildDenial } from "~/server/guilds/guild-section-rules.ts";
import type { ServiceContext } from "~/server/context.ts";
import { isUniqueViolation } from "~/server/db/prisma-errors.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { parseFeatures, toGuildObject } from "~/server/guilds/guild.dto.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";

/** GET /guilds/{guild.id}/vanity-url: MANAGE_GUILD; code null when unset. */
export async function getVanityUrl(ctx: ServiceContext, input: { guildId: string }): Promise<{ code: string | null; uses: number }> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageGuildDenial(access));
  return { code: access.guild.vanityUrlCode, uses: access.guild.vanityUses };
}

/**
 * PATCH /guilds/{guild.id}/vanity-url: MANAGE_GUILD and the VANITY_URL feature; a code
 * another guild or an invite holds is taken (50020). Null removes it. Guild Update.
 */
export async function setVanityUrl(ctx: ServiceContext, input: { guildId: string; code: string | null }): Promise<{ code: string | null; uses: number }> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageGuildDenial(access));
  if (!parseFeatures(access.guild.features).includes(GuildFeature.VanityURL)) throw new ApiError("NEEDS_MORE_BOOSTS");
  const { guild } = access;
  if (input.code === guild.vanityUrlCode) return { code: guild.vanityUrlCode, uses: guild.vanityUses };
  if (input.code && (await ctx.db.invite.findUnique({ where: { code: input.code }, select: { code: true } }))) throw new ApiError("INVITE_CODE_TAKEN");
  try {
    return await runChange(ctx, async ({ tx, emit, audit }) => {
      // A new code starts counting its uses afresh.
      const updated = await tx.guild.update({ where: { id: guild.id }, data: { vanityUrlCode: input.code, vanityUses: 0 } });
      await audit({
        guildId: guild.id,
        actionType: AuditLogEvent.GuildUpdate,
        targetId: guild.id,
        changes: [{ key: "vanity_url_code", ...(guild.vanityUrlCode && { old_value: guild.vanityUrlCode }), ...(input.code && { new_value: input.code }) }],
      });
      await emit(GatewayDispatchEvents.GuildUpdate, toGuildObject(updated, access.roles, access.state.expressions));
      return { code: updated.vanityUrlCode, uses: updated.vanityUses };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("INVITE_CODE_TAKEN");
    throw error;
  }
}
