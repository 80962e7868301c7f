// The developer portal's OAuth2 part of an application's page: its owner resets the client
// secret, edits the redirect URIs, and picks a guild for an install link. Someone else's
// application reads as unknown (ownedApplication).
import { PermissionFlagsBits } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { resetClientSecret, setRedirectUris } from "~/server/oauth2/client-settings.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { listCurrentUserGuilds } from "~/server/users/user.service.ts";
import { getOwnApplication, ownedApplication, type ApplicationDetail } from "./application-dashboard.service.ts";
import type { TApplicationRedirectUrisInput } from "./application.schema.ts";

/** A new client secret for the owner's application, answered this once; the previous one stops working. */
export async function resetOwnClientSecret(ctx: ServiceContext, input: { applicationId: string }): Promise<{ clientSecret: string }> {
  const app = await ownedApplication(ctx, input.applicationId);
  return { clientSecret: await resetClientSecret(ctx, app.id) };
}

/** Replaces the owner's registered redirect URIs, by the OAuth2 client's rule (valid, at most REDIRECT_URIS_MAX). */
export async function setOwnRedirectUris(ctx: ServiceContext, input: TApplicationRedirectUrisInput): Promise<ApplicationDetail> {
  const app = await ownedApplication(ctx, input.applicationId);
  await setRedirectUris(ctx, app.id, input.redirectUris);
  return getOwnApplication(ctx, input);
}

/** A guild an install link may preselect. */
type InstallGuild = { id: string; name: string; icon: string | null };

/**
 * The guilds the owner may add a bot to (Manage Guild, as the authorize page asks), to
 * preselect one in an install link.
 */
export async function listInstallGuilds(ctx: ServiceContext, input: { applicationId: string }): Promise<InstallGuild[]> {
  await ownedApplication(ctx, input.applicationId);
  const guilds = await listCurrentUserGuilds(ctx, {});
  return guilds
    .filter((guild) => hasPermission(BigInt(guild.permissions), PermissionFlagsBits.ManageGuild))
    .map(({ id, name, icon }) => ({ id, name, icon }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
