// The consent page's three answers: what an authorize request asks (describe), approving it
// (the authorization, a bot added with its managed role, an incoming webhook, then a code or
// an implicit token) and denying it. Each decides again from the request's own query.
import { AuditLogEvent, GatewayDispatchEvents, WebhookType } from "discord-api-types/v10";
import type { Application, Guild } from "~/generated/prisma/client.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { GUILD_OBJECT_INCLUDE, toGuildObject, type GuildObject } from "~/server/guilds/guild.dto.ts";
import { BOT_INTEGRATION_SCOPES } from "~/server/integrations/integration.schema.ts";
import { joinGuild } from "~/server/members/membership.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";
import { toRoleObject } from "~/server/roles/role.dto.ts";
import { insertRoleAboveEveryone } from "~/server/roles/role.service.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { insertWebhook, newWebhookToken, requireManageIn } from "~/server/webhooks/webhook.service.ts";
import { WEBHOOK_CHANNEL_TYPES } from "~/server/webhooks/webhook.schema.ts";
import { WEBHOOK_NAME_MAX } from "~/server/webhooks/webhook-name.ts";
import { decideAuthorize, redirectWith, type AuthorizeDecision, type AuthorizeRequest } from "./authorize-request.ts";
import { botGuildDenial, describeConsent, type ConsentView } from "./consent-view.ts";
import { issueCode, issueTokenPair, recordAuthorization } from "./grants.ts";
import { redirectUrisOf } from "./client-settings.ts";
import { oauth2Issuer } from "./metadata.ts";
import { parseScopeList } from "./scopes.ts";

/** What the person chose on the page: the guild for a bot, the permissions left ticked, the channel for a webhook. */
export type AuthorizeChoices = { guildId?: string | null; permissions?: string | null; channelId?: string | null };

/** Where the page goes after approving: back to the client, or a page of its own (an install link without a redirect). */
export type AuthorizeOutcome = { redirectTo: string } | { done: { guild: { id: string; name: string } | null } };

const SNOWFLAKE = /^\d{1,20}$/;

async function decide(ctx: ServiceContext, query: Record<string, string>): Promise<{ decision: AuthorizeDecision; application: Application | null }> {
  const clientId = query.client_id ?? "";
  const application = SNOWFLAKE.test(clientId) ? await ctx.db.application.findUnique({ where: { id: clientId } }) : null;
  const granted = application
    ? await ctx.db.oAuth2Authorization.findUnique({ where: { applicationId_userId: { applicationId: application.id, userId: ctx.actor.userId } } })
    : null;
  const decision = decideAuthorize({
    query,
    client: application && { ...application, redirectUris: redirectUrisOf(application) },
    userId: ctx.actor.userId,
    grantedScopes: parseScopeList(granted?.scopes ?? ""),
    issuer: oauth2Issuer(),
  });
  return { decision, application };
}

/** What the consent page shows for a request, or why it cannot be answered. */
export async function describeAuthorize(ctx: ServiceContext, query: Record<string, string>): Promise<ConsentView> {
  const { decision, application } = await decide(ctx, query);
  if (decision.kind === "error_page") return { kind: "error", error: decision.error, description: decision.description };
  if (decision.kind === "redirect") return { kind: "redirect", redirectTo: decision.redirectTo };
  return describeConsent(ctx, application!, decision.request, decision.skipConsent);
}

/** The person said no: access_denied back to the client (with state and iss), or nowhere for an install link. */
export async function denyAuthorize(ctx: ServiceContext, query: Record<string, string>): Promise<{ redirectTo: string | null }> {
  const { decision } = await decide(ctx, query);
  if (decision.kind === "error_page") return { redirectTo: null };
  if (decision.kind === "redirect") return { redirectTo: decision.redirectTo };
  const { request } = decision;
  if (request.redirectTarget === null) return { redirectTo: null };
  return {
    redirectTo: redirectWith(request.redirectTarget, request, oauth2Issuer(), { error: "access_denied", error_description: "The user denied the request." }),
  };
}

/**
 * The person approved: in one change, the authorization (scopes widen), the bot joined with its
 * managed role holding the approved permissions (a subset of those asked), the incoming webhook,
 * then the code or the implicit grant's token.
 */
export async function approveAuthorize(ctx: ServiceContext, input: { query: Record<string, string>; choices?: AuthorizeChoices }): Promise<AuthorizeOutcome> {
  const { decision, application } = await decide(ctx, input.query);
  if (decision.kind === "error_page") throw invalidField(["request"], "OAUTH2_AUTHORIZE_INVALID", decision.description);
  if (decision.kind === "redirect") return { redirectTo: decision.redirectTo };
  const { request } = decision;
  const app = application!;
  const choices = input.choices ?? {};
  const bot = request.scopes.includes("bot") ? await botTarget(ctx, request, choices) : null;
  const webhookChannel = request.scopes.includes("webhook.incoming") ? await webhookTarget(ctx, request, choices) : null;

  return runChange(ctx, async (change) => {
    const installed = bot ? await installBot(ctx, change, app, bot.guild, bot.permissions, request.scopes) : null;
    const webhook = webhookChannel
      ? await insertWebhook(ctx, change, {
          type: WebhookType.Incoming,
          guildId: webhookChannel.guildId,
          channelId: webhookChannel.channelId,
          name: app.name.slice(0, WEBHOOK_NAME_MAX),
          avatar: null,
          token: newWebhookToken(),
          applicationId: app.id,
        })
      : null;
    const guildId = installed?.guild.id ?? webhook?.guildId ?? null;
    const guild = installed?.guild ?? (guildId ? await guildObject(change, guildId) : null);
    const authorization = await recordAuthorization(change, { applicationId: app.id, userId: ctx.actor.userId, scopes: request.scopes, guild });

    if (request.redirectTarget === null) return { done: { guild: installed && { id: installed.guild.id, name: installed.guild.name } } };
    if (request.responseType === "token") {
      const grant = await issueTokenPair(change.tx, {
        applicationId: app.id,
        userId: ctx.actor.userId,
        scopes: request.scopes,
        authorizationId: authorization.id,
        refresh: false,
      });
      const answer = { access_token: grant.access_token, token_type: grant.token_type, expires_in: String(grant.expires_in), scope: grant.scope };
      return { redirectTo: redirectWith(request.redirectTarget, request, oauth2Issuer(), answer) };
    }
    const code = await issueCode(change.tx, {
      applicationId: app.id,
      userId: ctx.actor.userId,
      authorizationId: authorization.id,
      scopes: request.scopes.join(" "),
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
      nonce: request.nonce,
      guildId: installed?.guild.id ?? null,
      webhookId: webhook?.id ?? null,
    });
    // The platform tells a bot's code flow where the bot went and with what.
    const botParams: Record<string, string> = bot ? { guild_id: bot.guild.id, permissions: bot.permissions.toString() } : {};
    return { redirectTo: redirectWith(request.redirectTarget, request, oauth2Issuer(), { code, ...botParams }) };
  });
}

/** The guild the bot goes to and the permissions its role gets: the person's picks, checked again. */
async function botTarget(ctx: ServiceContext, request: AuthorizeRequest, choices: AuthorizeChoices) {
  const guildId = request.disableGuildSelect ? request.guildId : (choices.guildId ?? request.guildId);
  if (!guildId || !SNOWFLAKE.test(guildId)) throw invalidField(["guild_id"], "BASE_TYPE_REQUIRED", "Pick a server to add the bot to.");
  const chosen = choices.permissions ?? null;
  if (chosen !== null && !/^\d{1,20}$/.test(chosen)) throw invalidField(["permissions"], "BASE_TYPE_BAD_VALUE", "Not a permission bitfield.");
  // Only what was asked can be approved; unticking takes some away.
  const permissions = chosen === null ? request.permissions : request.permissions & BigInt(chosen);
  const access = await loadGuildAccess(ctx, guildId);
  enforce(botGuildDenial(access, permissions));
  return { guild: access.guild, permissions };
}

/** The channel the webhook goes to: one of the guild's webhook channels where the person manages webhooks. */
async function webhookTarget(ctx: ServiceContext, request: AuthorizeRequest, choices: AuthorizeChoices) {
  const channelId = choices.channelId ?? request.channelId;
  if (!channelId || !SNOWFLAKE.test(channelId)) throw invalidField(["channel_id"], "BASE_TYPE_REQUIRED", "Pick a channel for the webhook.");
  const { access, channel } = await requireManageIn(ctx, channelId);
  if (!WEBHOOK_CHANNEL_TYPES.has(channel.type)) throw new ApiError("WRONG_CHANNEL_TYPE");
  return { guildId: access.guild.id, channelId: channel.id };
}

async function guildObject(change: Change, guildId: string): Promise<GuildObject> {
  const guild = await change.tx.guild.findUniqueOrThrow({ where: { id: guildId }, include: GUILD_OBJECT_INCLUDE });
  return toGuildObject(guild, guild.roles, guild);
}

/**
 * Adds the application's bot to a guild through the joining service, with a managed role named
 * after the application holding exactly `permissions` (tags.bot_id) and the "discord"
 * integration naming who added it; audit ROLE_CREATE, BOT_ADD and INTEGRATION_CREATE. A bot
 * already there keeps its membership and its managed role takes the approved permissions, as
 * re-adding a bot does on the platform.
 */
async function installBot(ctx: ServiceContext, change: Change, app: Application, guild: Guild, permissions: bigint, scopes: readonly string[]) {
  const { tx, audit, emit } = change;
  const existing = await tx.member.findUnique({ where: { guildId_userId: { guildId: guild.id, userId: app.botUserId } }, select: { userId: true } });
  if (existing) {
    const role = await tx.role.findFirst({ where: { guildId: guild.id, botId: app.botUserId, managed: true } });
    if (role && role.permissions !== permissions) {
      const updated = await tx.role.update({ where: { id: role.id }, data: { permissions } });
      await emit(GatewayDispatchEvents.GuildRoleUpdate, { guild_id: guild.id, role: toRoleObject(updated) });
      const changes = diffChanges({ permissions: role.permissions.toString() }, { permissions: permissions.toString() }, ["permissions"]);
      await audit({ guildId: guild.id, actionType: AuditLogEvent.RoleUpdate, targetId: role.id, changes });
    }
    return { guild: await guildObject(change, guild.id) };
  }
  const role = await insertRoleAboveEveryone(change, guild.id, { id: newId(), name: app.name, permissions, managed: true, botId: app.botUserId });
  await audit({
    guildId: guild.id,
    actionType: AuditLogEvent.RoleCreate,
    targetId: role.id,
    changes: diffChanges({}, { name: role.name, permissions: permissions.toString() }, ["name", "permissions"]),
  });
  // The bot scope includes applications.commands, as on the platform: the app may hold guild commands there.
  const integrationScopes = scopes.includes("bot") ? [...BOT_INTEGRATION_SCOPES] : scopes.filter((scope) => scope === "applications.commands");
  const joined = await joinGuild(change, {
    guild,
    userId: app.botUserId,
    roleIds: [role.id],
    addedBy: ctx.actor.userId,
    botIntegration: { roleId: role.id, scopes: integrationScopes },
  });
  if (!joined) throw new ApiError("MISSING_PERMISSIONS");
  await audit({ guildId: guild.id, actionType: AuditLogEvent.BotAdd, targetId: app.botUserId });
  const integration = await tx.integration.findUnique({ where: { guildId_applicationId: { guildId: guild.id, applicationId: app.id } } });
  if (integration) {
    await audit({
      guildId: guild.id,
      actionType: AuditLogEvent.IntegrationCreate,
      targetId: integration.id,
      changes: diffChanges({}, { type: integration.type, name: integration.name }, ["type", "name"]),
    });
  }
  return { guild: await guildObject(change, guild.id) };
}
