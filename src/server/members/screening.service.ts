import { AuditLogEvent, GatewayDispatchEvents, GuildFeature } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { runChange } from "~/server/events/change.ts";
import { parseFeatures, toGuildObject } from "~/server/guilds/guild.dto.ts";
import { manageGuildDenial } from "~/server/guilds/guild-section-rules.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";

const GATE = GuildFeature.MemberVerificationGateEnabled;

/** GET /guilds/{guild.id}/member-verification: whether joining members must pass screening. */
export async function getScreening(ctx: ServiceContext, input: { guildId: string }) {
  const access = await loadGuildAccess(ctx, input.guildId);
  return { enabled: parseFeatures(access.guild.features).includes(GATE), description: access.guild.description, form_fields: [] as never[] };
}

/**
 * PATCH /guilds/{guild.id}/member-verification: MANAGE_GUILD turns membership screening on
 * or off (the MEMBER_VERIFICATION_GATE_ENABLED feature; Guild Update). Members who joined
 * while it was on stay pending until they complete it.
 */
export async function setScreening(ctx: ServiceContext, input: { guildId: string; enabled: boolean }) {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageGuildDenial(access));
  const features = parseFeatures(access.guild.features);
  if (features.includes(GATE) !== input.enabled) {
    const next = input.enabled ? [...features, GATE] : features.filter((feature) => feature !== GATE);
    await runChange(ctx, async ({ tx, emit, audit }) => {
      const updated = await tx.guild.update({ where: { id: access.guild.id }, data: { features: JSON.stringify(next) } });
      await audit({
        guildId: access.guild.id,
        actionType: AuditLogEvent.GuildUpdate,
        targetId: access.guild.id,
        changes: [{ key: "features", old_value: features, new_value: next }],
      });
      await emit(GatewayDispatchEvents.GuildUpdate, toGuildObject(updated, access.roles, access.state.expressions));
    });
  }
  return getScreening(ctx, input);
}
