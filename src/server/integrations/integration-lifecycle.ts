// How integrations come and go with the members they belong to: a bot joining records its
// integration, and an integration leaving (deleted, or its bot removed by any path) takes
// what it brought. Called from membership.ts, so nothing here may import it.
import { GatewayDispatchEvents } from "discord-api-types/v10";
import type { Integration } from "~/generated/prisma/client.ts";
import type { Change } from "~/server/events/change.ts";
import { withdrawInstallGrant } from "~/server/oauth2/install-revocation.ts";
import { removeRole } from "~/server/roles/role.service.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { dropApplicationWebhooks } from "~/server/webhooks/webhook-removal.ts";
import { loadIntegrationRefs, toIntegrationObject } from "./integration.dto.ts";
import { BOT_INTEGRATION_SCOPES } from "./integration.schema.ts";

/** A new integration in the guild: Integration Create (the object and guild_id) and Guild Integrations Update. */
export async function announceIntegration(change: Change, row: Integration): Promise<void> {
  const refs = await loadIntegrationRefs(change.tx, [row]);
  await change.emit(GatewayDispatchEvents.IntegrationCreate, { ...toIntegrationObject(row, refs), guild_id: row.guildId });
  await change.emit(GatewayDispatchEvents.GuildIntegrationsUpdate, { guild_id: row.guildId });
}

/**
 * A user who joined a guild: when it is an application's bot, its "discord" integration is
 * recorded, naming who added it when known. Users without an application add nothing.
 */
export async function recordBotIntegration(
  change: Change,
  input: { guildId: string; userId: string; addedBy: string | null; roleId?: string; scopes?: readonly string[] },
): Promise<void> {
  const application = await change.tx.application.findUnique({ where: { botUserId: input.userId }, include: { botUser: true } });
  if (!application) return;
  const key = { guildId_applicationId: { guildId: input.guildId, applicationId: application.id } };
  if (await change.tx.integration.findUnique({ where: key, select: { id: true } })) return;
  const row = await change.tx.integration.create({
    data: {
      id: newId(),
      guildId: input.guildId,
      type: "discord",
      name: application.name,
      accountId: application.botUserId,
      accountName: application.botUser.username,
      applicationId: application.id,
      userId: input.addedBy,
      // Its managed role goes with it (dropIntegrations).
      roleId: input.roleId ?? null,
      scopes: (input.scopes ?? BOT_INTEGRATION_SCOPES).join(" "),
    },
  });
  await announceIntegration(change, row);
}

/**
 * Deletes integrations inside a change with what they brought: their managed role (Guild
 * Role Delete) and the installer's OAuth2 grant of them. Each fires Integration Delete, and the guild one Guild Integrations Update.
 * Returns those this change deleted: one a concurrent change took first is that change's.
 */
export async function dropIntegrations(change: Change, guildId: string, rows: readonly Integration[]): Promise<Integration[]> {
  const { tx, emit } = change;
  const dropped: Integration[] = [];
  for (const row of rows) {
    const { count } = await tx.integration.deleteMany({ where: { id: row.id, guildId } });
    if (count === 0) continue;
    if (row.applicationId) await dropApplicationWebhooks(change, guildId, row.applicationId);
    // Whoever added it no longer grants what installing it granted.
    if (row.applicationId && row.userId) await withdrawInstallGrant(change, { applicationId: row.applicationId, userId: row.userId });
    const role = row.roleId ? await tx.role.findFirst({ where: { id: row.roleId, guildId, managed: true }, select: { id: true } }) : null;
    if (role) await removeRole(change, guildId, role.id);
    await emit(GatewayDispatchEvents.IntegrationDelete, {
      id: row.id,
      guild_id: guildId,
      ...(row.applicationId && { application_id: row.applicationId }),
    });
    dropped.push(row);
  }
  if (dropped.length > 0) await emit(GatewayDispatchEvents.GuildIntegrationsUpdate, { guild_id: guildId });
  return dropped;
}

/** Bots leaving a guild by any path (kick, ban, prune, leave) take their integrations with them. */
export async function dropBotIntegrations(change: Change, guildId: string, botUserIds: readonly string[]): Promise<void> {
  if (botUserIds.length === 0) return;
  const rows = await change.tx.integration.findMany({ where: { guildId, type: "discord", accountId: { in: [...botUserIds] } } });
  await dropIntegrations(change, guildId, rows);
}
