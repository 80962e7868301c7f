// What a user's approval leaves behind, and what the token endpoint hands out: a user's
// authorization of an application (Authorized apps), single-use codes, and access tokens with
// their refresh tokens. The authorize page, the token endpoint and deauthorizing share these.
import { ApplicationIntegrationType, ApplicationWebhookEventType } from "discord-api-types/v10";
import { createHash, randomBytes } from "node:crypto";
import type { OAuth2Code } from "~/generated/prisma/client.ts";
import { issueToken, revokeTokensIn } from "~/server/auth/tokens.service.ts";
import type { Tx } from "~/server/db/client.ts";
import { runChange, type Change, type ChangeContext } from "~/server/events/change.ts";
import type { GuildObject } from "~/server/guilds/guild.dto.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import { parseScopeList } from "./scopes.ts";

/** The platform's access token lifetime: 7 days (the token response's expires_in). */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 604_800;
/** An authorization code is exchanged within 10 minutes or not at all. */
export const CODE_LIFETIME_MS = 10 * 60_000;

/** The platform's token response, before `guild` / `webhook` / `id_token` are added by the flow that made them. */
export type TokenGrant = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token?: string;
  scope: string;
};

/** SHA-256 (hex) of a code or client secret: only this is stored. */
export function secretDigest(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/**
 * Records a user's approval of scopes for an application inside the caller's change: one
 * authorization per user and application whose scopes grow with each approval. Emits
 * APPLICATION_AUTHORIZED (the application's event webhooks), with the guild it was installed to.
 */
export async function recordAuthorization(
  change: Change,
  input: { applicationId: string; userId: string; scopes: readonly string[]; guild?: GuildObject | null },
): Promise<{ id: string; scopes: string[] }> {
  const { tx, emit } = change;
  const key = { applicationId_userId: { applicationId: input.applicationId, userId: input.userId } };
  const existing = await tx.oAuth2Authorization.findUnique({ where: key });
  const scopes = [...new Set([...parseScopeList(existing?.scopes ?? ""), ...input.scopes])];
  const now = new Date();
  const row = existing
    ? await tx.oAuth2Authorization.update({ where: { id: existing.id }, data: { scopes: scopes.join(" "), updatedAt: now } })
    : await tx.oAuth2Authorization.create({
        data: { id: newId(), applicationId: input.applicationId, userId: input.userId, scopes: scopes.join(" "), updatedAt: now },
      });
  const user = await tx.user.findUniqueOrThrow({ where: { id: input.userId } });
  await emit(ApplicationWebhookEventType.ApplicationAuthorized, {
    application_id: input.applicationId,
    user: toUserObject(user),
    scopes: [...input.scopes],
    // Installed to a guild when a bot or webhook came with it, else to the user's account.
    integration_type: input.guild ? ApplicationIntegrationType.GuildInstall : ApplicationIntegrationType.UserInstall,
    ...(input.guild && { guild: input.guild }),
  });
  return { id: row.id, scopes };
}

/** A new authorization code for an approval; what the code will answer is stored with its digest. */
export async function issueCode(
  tx: Tx,
  input: Pick<
    OAuth2Code,
    "applicationId" | "userId" | "authorizationId" | "scopes" | "redirectUri" | "codeChallenge" | "codeChallengeMethod" | "nonce" | "guildId" | "webhookId"
  >,
): Promise<string> {
  const code = randomBytes(24).toString("base64url");
  await tx.oAuth2Code.create({ data: { ...input, id: secretDigest(code), expiresAt: new Date(Date.now() + CODE_LIFETIME_MS) } });
  return code;
}

/**
 * Takes a code for one exchange: the row when it was unused and unexpired (marked used by one
 * conditional update, so two exchanges at once cannot both have it), "replayed" when it had
 * been used (its token is then the caller's to revoke), null when it is unknown or expired.
 */
export async function consumeCode(tx: Tx, code: string): Promise<OAuth2Code | "replayed" | null> {
  const id = secretDigest(code);
  const { count } = await tx.oAuth2Code.updateMany({ where: { id, usedAt: null, expiresAt: { gt: new Date() } }, data: { usedAt: new Date() } });
  const row = await tx.oAuth2Code.findUnique({ where: { id } });
  if (count === 1) return row;
  return row?.usedAt ? "replayed" : null;
}

/**
 * An access token (7 days) and, unless `refresh` is false (client credentials), its refresh
 * token, both under the authorization when there is one.
 */
export async function issueTokenPair(
  tx: Tx,
  input: { applicationId: string; userId: string; scopes: readonly string[]; authorizationId: string | null; refresh: boolean },
): Promise<TokenGrant & { accessTokenId: string }> {
  const common = { userId: input.userId, applicationId: input.applicationId, scopes: input.scopes, authorizationId: input.authorizationId };
  const access = await issueToken(tx, { ...common, kind: "bearer", expiresAt: new Date(Date.now() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000) });
  const refresh = input.refresh ? await issueToken(tx, { ...common, kind: "refresh", pairedTokenId: access.id }) : null;
  return {
    accessTokenId: access.id,
    access_token: access.token,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    ...(refresh && { refresh_token: refresh.token }),
    scope: input.scopes.join(" "),
  };
}

/** Revokes every live token of an authorization inside a change; they stop working on every instance at once. */
export async function revokeAuthorizationTokens(change: Change, authorizationId: string): Promise<void> {
  await revokeTokensIn(change, { authorizationId });
}

/**
 * Deauthorizes an application for a user: the authorization goes, every token issued under it
 * is revoked, and APPLICATION_DEAUTHORIZED is emitted. False when there was none.
 */
export async function deauthorize(ctx: ChangeContext, input: { applicationId: string; userId: string }): Promise<boolean> {
  return runChange(ctx, (change) => deauthorizeIn(change, input));
}

/** deauthorize inside the caller's change (an integration removed, which took the last scope). */
export async function deauthorizeIn(change: Change, input: { applicationId: string; userId: string }): Promise<boolean> {
  const key = { applicationId_userId: input };
  const row = await change.tx.oAuth2Authorization.findUnique({ where: key });
  if (!row) return false;
  await revokeAuthorizationTokens(change, row.id);
  const { count } = await change.tx.oAuth2Authorization.deleteMany({ where: { id: row.id } });
  if (count === 0) return false;
  const user = await change.tx.user.findUniqueOrThrow({ where: { id: input.userId } });
  await change.emit(ApplicationWebhookEventType.ApplicationDeauthorized, { application_id: input.applicationId, user: toUserObject(user) });
  return true;
}
