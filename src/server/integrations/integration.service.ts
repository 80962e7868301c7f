import { AuditLogEvent, IntegrationExpireBehavior } from "discord-api-types/v10";
import { enforce } from "~/server/permissions/denial.ts";
import { manageGuildDenial } from "~/server/guilds/guild-section-rules.ts";
import type { Integration } from "~/generated/prisma/client.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Tx } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange, type ChangeContext } from "~/server/events/change.ts";
import { removeMembers } from "~/server/members/membership.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";
import { insertRoleAboveEveryone } from "~/server/roles/role.service.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { announceIntegration, dropIntegrations } from "./integration-lifecycle.ts";
import { loadIntegrationRefs, toIntegrationObject, type IntegrationObject } from "./integration.dto.ts";
import { GUILD_INTEGRATIONS_MAX, type TIntegrationAdd } from "./integration.schema.ts";

/** A guild's integrations, oldest first, as many as the platform lets anyone see (spec 8). */
export async function readGuildIntegrations(db: Tx, guildId: string): Promise<IntegrationObject[]> {
  const rows = await db.integration.findMany({ where: { guildId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: GUILD_INTEGRATIONS_MAX });
  const refs = await loadIntegrationRefs(db, rows);
  return rows.map((row) => toIntegrationObject(row, refs));
}

/** GET /guilds/{guild.id}/integrations (spec 4.2): MANAGE_GUILD; at most 50. */
export async function listGuildIntegrations(ctx: ServiceContext, input: { guildId: string }): Promise<IntegrationObject[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageGuildDenial(access));
  return readGuildIntegrations(ctx.db, access.guild.id);
}

/**
 * DELETE /guilds/{guild.id}/integrations/{integration.id} (spec 4.2, 6): MANAGE_GUILD. The
 * integration goes with its webhooks and managed role, and its bot is kicked (Guild Member
 * Remove); Guild Integrations Update and Integration Delete fire; audit INTEGRATION_DELETE.
 * 10005 Unknown Integration for an id that is not this guild's.
 */
export async function deleteGuildIntegration(ctx: ServiceContext, input: { guildId: string; integrationId: string }): Promise<void> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageGuildDenial(access));
  const guildId = access.guild.id;
  await runChange(ctx, async (change) => {
    const row = await change.tx.integration.findFirst({ where: { id: input.integrationId, guildId } });
    const [dropped] = row ? await dropIntegrations(change, guildId, [row]) : [];
    if (!dropped) throw new ApiError("UNKNOWN_INTEGRATION");
    await change.audit({ guildId, actionType: AuditLogEvent.IntegrationDelete, targetId: dropped.id, changes: auditChanges(dropped) });
    const bot = await integrationBotMember(change.tx, dropped);
    if (bot) await removeMembers(change, guildId, [bot]);
  });
}

function auditChanges(row: Integration) {
  return diffChanges({ type: row.type, name: row.name }, {}, ["type", "name"]);
}

/** The bot user of a bot's integration while it is a member of the integration's guild. */
async function integrationBotMember(tx: Tx, row: Integration) {
  if (row.type !== "discord") return null;
  const member = await tx.member.findUnique({ where: { guildId_userId: { guildId: row.guildId, userId: row.accountId } }, include: { user: true } });
  return member?.user ?? null;
}

/** The role the platform makes for a stream or channel integration's subscribers, managed by it. */
const SUBSCRIBER_ROLE_NAMES: Partial<Record<TIntegrationAdd["type"], string>> = { twitch: "Twitch Subscriber", youtube: "YouTube Member" };

/**
 * Adds an integration of another service to a guild (the operator's path: CLI and seed; the
 * platform makes these when a user links a stream or channel). Twitch and YouTube ones get
 * their managed subscriber role. Fires Integration Create and Guild Integrations Update.
 */
export async function addIntegration(ctx: ChangeContext, input: TIntegrationAdd): Promise<IntegrationObject> {
  const guild = await ctx.db.guild.findUnique({ where: { id: input.guild_id }, select: { id: true } });
  if (!guild) throw new ApiError("UNKNOWN_GUILD");
  if (input.user_id && !(await ctx.db.user.findUnique({ where: { id: input.user_id }, select: { id: true } }))) throw new ApiError("UNKNOWN_USER");
  const isStream = input.type !== "guild_subscription";
  return runChange(ctx, async (change) => {
    const roleName = SUBSCRIBER_ROLE_NAMES[input.type];
    const role = roleName ? await insertRoleAboveEveryone(change, guild.id, { id: newId(), name: roleName, managed: true }) : null;
    const row = await change.tx.integration.create({
      data: {
        id: newId(),
        guildId: guild.id,
        type: input.type,
        name: input.name,
        accountId: input.account_id,
        accountName: input.account_name,
        userId: input.user_id ?? null,
        roleId: role?.id ?? null,
        ...(isStream && {
          syncing: false,
          enableEmoticons: input.type === "twitch" ? false : null,
          expireBehavior: IntegrationExpireBehavior.RemoveRole,
          expireGracePeriod: 1, // days
          subscriberCount: 0,
          syncedAt: new Date(),
        }),
      },
    });
    await announceIntegration(change, row);
    return toIntegrationObject(row, await loadIntegrationRefs(change.tx, [row]));
  });
}
