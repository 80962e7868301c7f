import { GatewayDispatchEvents } from "discord-api-types/v10";
import { enforce } from "~/server/permissions/denial.ts";
import { manageGuildDenial } from "~/server/guilds/guild-section-rules.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { invalidField } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { toGuildObject } from "~/server/guilds/guild.dto.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";
import { INCIDENT_ACTION_MAX_MS, type TIncidentActionsBody } from "./guild-config.schema.ts";

export type IncidentsData = { invites_disabled_until: string | null; dms_disabled_until: string | null };

/**
 * PUT /guilds/{guild.id}/incident-actions (spec 4.2, 8): MANAGE_GUILD pauses invites or DMs
 * until a time at most 24 hours ahead; null ends the action. The joining service refuses
 * invites while `invites_disabled_until` is ahead. Fires Guild Update.
 */
export async function setIncidentActions(ctx: ServiceContext, input: { guildId: string; body: TIncidentActionsBody }): Promise<IncidentsData> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageGuildDenial(access));
  const data: Prisma.GuildUpdateInput = {};
  const limit = Date.now() + INCIDENT_ACTION_MAX_MS;
  for (const [field, column] of [
    ["invites_disabled_until", "invitesDisabledUntil"],
    ["dms_disabled_until", "dmsDisabledUntil"],
  ] as const) {
    const value = input.body[field];
    if (value === undefined) continue;
    const until = value === null ? null : new Date(value);
    if (until && until.getTime() > limit) throw invalidField([field], "BASE_TYPE_BAD_TIMESTAMP", "Can be at most 24 hours ahead.");
    data[column] = until;
  }
  const guild = await runChange(ctx, async ({ tx, emit }) => {
    const updated = await tx.guild.update({ where: { id: access.guild.id }, data });
    await emit(GatewayDispatchEvents.GuildUpdate, toGuildObject(updated, access.roles, access.state.expressions));
    return updated;
  });
  return { invites_disabled_until: guild.invitesDisabledUntil?.toISOString() ?? null, dms_disabled_until: guild.dmsDisabledUntil?.toISOString() ?? null };
}
