// The developer portal's OAuth2 part of an application's page: its owner resets the client
// secret, edits the redirect URIs, and picks a guild for an install link. Someone else's
// application reads as unknown (ownedApplication).
import type { ServiceContext } from "~/server/context.ts";
import { manageGuildDenial } from "~/server/guilds/guild-section-rules.ts";
import { resetClientSecret, setRedirectUris } from "~/server/oauth2/client-settings.ts";
import { loadMemberAccesses } from "~/server/permissions/guild-access.ts";
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
 * The guilds the owner may add a bot to, to preselect one in an install link: those the
 * authorize page offers, by the same rule (manageGuildDenial).
 */
export async function listInstallGuilds(ctx: ServiceContext, input: { applicationId: string }): Promise<InstallGuild[]> {
  await ownedApplication(ctx, input.applicationId);
  const accesses = await loadMemberAccesses(ctx);
  return accesses.filter((access) => manageGuildDenial(access) === null).map(({ guild }) => ({ id: guild.id, name: guild.name, icon: guild.icon }));
}
