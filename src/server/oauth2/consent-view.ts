// What the consent page shows: who asks for what, in words, and where a bot or a webhook may
// go, each guild and channel with the reason it cannot be picked, decided here.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import type { Application } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { manageGuildDenial } from "~/server/guilds/guild-section-rules.ts";
import { missingIn, reasonOf, type Denial } from "~/server/permissions/denial.ts";
import { channelPermissions, loadMemberAccesses, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { permissionLabel } from "~/server/permissions/permission-labels.ts";
import { NAMED_PERMISSIONS, hasPermission, serializePermissions } from "~/server/permissions/permissions.ts";
import { grantDenial } from "~/server/roles/role-rules.ts";
import { WEBHOOK_CHANNEL_TYPES } from "~/server/webhooks/webhook.schema.ts";
import type { OAuth2ErrorCode } from "./oauth2-error.ts";
import type { AuthorizeRequest } from "./authorize-request.ts";
import { isScopeName, SCOPES } from "./scopes.ts";

type ConsentGuild = { id: string; name: string; icon: string | null; denial: string | null };
export type ConsentChannel = { id: string; name: string; guildId: string; guildName: string; denial: string | null };

export type ConsentView =
  | { kind: "error"; error: OAuth2ErrorCode; description: string }
  /** The request fails in a way the client is told of: the page goes there at once. */
  | { kind: "redirect"; redirectTo: string }
  | {
      kind: "consent";
      /** prompt=none and everything asked was granted before: the page approves without asking. */
      skipConsent: boolean;
      application: { id: string; name: string; icon: string | null; description: string };
      /** Each asked scope with what it lets the application do. */
      scopes: { scope: string; grants: string }[];
      /** Where the answer goes (its host), null for an install link that ends on the page. */
      redirectHost: string | null;
      bot: {
        /** The asked permissions, each the person may untick; `bit` is a decimal string. */
        permissions: { bit: string; name: string; label: string }[];
        guilds: ConsentGuild[];
        guildId: string | null;
        disableGuildSelect: boolean;
      } | null;
      webhook: { channels: ConsentChannel[]; channelId: string | null } | null;
    };

/**
 * Why the person cannot add this bot to this guild with these permissions: they need Manage
 * Guild there, and can give the bot's role only permissions they hold (as for any role).
 */
export function botGuildDenial(access: GuildAccess, permissions: bigint): Denial | null {
  return manageGuildDenial(access) ?? grantDenial(access, 0n, permissions);
}

/** The consent page's view of a valid request. */
export async function describeConsent(ctx: ServiceContext, app: Application, request: AuthorizeRequest, skipConsent: boolean): Promise<ConsentView> {
  const asksBot = request.scopes.includes("bot");
  const asksWebhook = request.scopes.includes("webhook.incoming");
  const accesses = asksBot || asksWebhook ? await loadMemberAccesses(ctx) : [];
  return {
    kind: "consent",
    skipConsent,
    application: { id: app.id, name: app.name, icon: app.icon, description: app.description },
    scopes: request.scopes.map((scope) => ({ scope, grants: isScopeName(scope) ? SCOPES[scope].grants : scope })),
    redirectHost: request.redirectTarget === null ? null : hostOf(request.redirectTarget),
    bot: asksBot
      ? {
          permissions: NAMED_PERMISSIONS.filter(({ bit }) => (request.permissions & bit) !== 0n).map(({ name, bit }) => ({
            bit: serializePermissions(bit),
            name,
            label: permissionLabel(bit),
          })),
          // Guilds the person cannot manage are not offered at all, as on the platform.
          guilds: accesses
            .filter((access) => manageGuildDenial(access) === null)
            .map((access) => ({
              id: access.guild.id,
              name: access.guild.name,
              icon: access.guild.icon,
              denial: reasonOf(botGuildDenial(access, request.permissions)),
            })),
          guildId: request.guildId,
          disableGuildSelect: request.disableGuildSelect,
        }
      : null,
    webhook: asksWebhook ? { channels: await webhookChannels(accesses), channelId: request.channelId } : null,
  };
}

/** Channels that take webhooks and that the person can see, each with why they cannot add one there. */
async function webhookChannels(accesses: readonly GuildAccess[]): Promise<ConsentChannel[]> {
  const channels: ConsentChannel[] = [];
  for (const access of accesses) {
    const { rows } = await access.state.channels();
    for (const row of rows) {
      if (!WEBHOOK_CHANNEL_TYPES.has(row.type)) continue;
      const held = channelPermissions(access, { type: row.type, overwrites: toOverwriteInputs(row.overwrites) });
      if (!hasPermission(held, P.ViewChannel)) continue;
      const denial = reasonOf(missingIn(access, held, [P.ManageWebhooks], " in this channel"));
      channels.push({ id: row.id, name: row.name ?? row.id, guildId: access.guild.id, guildName: access.guild.name, denial });
    }
  }
  return channels;
}

function hostOf(uri: string): string {
  const url = new URL(uri);
  return url.host || url.protocol;
}
