// An application's identity providers (partner SDK), set by an operator: how its players'
// external credentials are verified. Only OIDC can be verified here.
import { z } from "zod";
import type { Db } from "~/server/db/client.ts";
import { runChange, type ChangeContext } from "~/server/events/change.ts";
import { ApiError } from "~/server/errors.ts";

export const ZIdentityProviderSettingsSchema = z.object({
  type: z.literal("OIDC", { error: "Only OIDC identity providers can be verified here." }),
  issuer: z.url({ error: "The issuer must be an absolute URL." }),
  audience: z.string().trim().min(1, "The audience is required."),
  jwks_uri: z.url({ protocol: /^https?$/, error: "The JWKS URI must be an http(s) URL." }),
});
export type IdentityProviderSettings = z.infer<typeof ZIdentityProviderSettingsSchema>;

type ProviderRow = { authType: string; issuer: string; audience: string; jwksUri: string };
const toSettings = (row: ProviderRow): IdentityProviderSettings => ({ type: "OIDC", issuer: row.issuer, audience: row.audience, jwks_uri: row.jwksUri });

/** Sets (or replaces) the application's provider of that type. */
export async function setIdentityProvider(ctx: ChangeContext, applicationId: string, settings: IdentityProviderSettings): Promise<IdentityProviderSettings> {
  await requireApplication(ctx.db, applicationId);
  const data = { issuer: settings.issuer, audience: settings.audience, jwksUri: settings.jwks_uri, updatedAt: new Date() };
  const row = await runChange(ctx, ({ tx }) =>
    tx.identityProvider.upsert({
      where: { applicationId_authType: { applicationId, authType: settings.type } },
      create: { applicationId, authType: settings.type, ...data },
      update: data,
    }),
  );
  return toSettings(row);
}

/** Removes the application's provider of that type: its players can no longer exchange those credentials. False when there was none. */
export async function removeIdentityProvider(ctx: ChangeContext, applicationId: string, authType: string): Promise<boolean> {
  await requireApplication(ctx.db, applicationId);
  const { count } = await runChange(ctx, ({ tx }) => tx.identityProvider.deleteMany({ where: { applicationId, authType } }));
  return count > 0;
}

export async function listIdentityProviders(db: Db, applicationId: string): Promise<IdentityProviderSettings[]> {
  await requireApplication(db, applicationId);
  return (await db.identityProvider.findMany({ where: { applicationId }, orderBy: { authType: "asc" } })).map(toSettings);
}

async function requireApplication(db: Db, applicationId: string): Promise<void> {
  if (!(await db.application.findUnique({ where: { id: applicationId }, select: { id: true } }))) throw new ApiError("UNKNOWN_APPLICATION");
}
