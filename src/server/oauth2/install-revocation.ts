// An application's integration leaving a guild (removed, or its bot kicked) takes back what
// installing it granted: the install scopes of the authorization of whoever added it, and
// the tokens that carried them. Called inside integration-lifecycle's changes.
import { revokeTokensIn } from "~/server/auth/tokens.service.ts";
import type { Change } from "~/server/events/change.ts";
import { INSTALL_SCOPES } from "./authorize-request.ts";
import { deauthorizeIn } from "./grants.ts";
import { parseScopeList } from "./scopes.ts";

const INSTALL: ReadonlySet<string> = new Set(INSTALL_SCOPES);

/**
 * Withdraws the install scopes (bot, applications.commands, webhook.incoming) from the
 * installer's authorization of the application and revokes its tokens carrying any of them;
 * an authorization left with no scope is deauthorized.
 */
export async function withdrawInstallGrant(change: Change, input: { applicationId: string; userId: string }): Promise<void> {
  const { tx } = change;
  const row = await tx.oAuth2Authorization.findUnique({ where: { applicationId_userId: input } });
  if (!row) return;
  const left = parseScopeList(row.scopes).filter((scope) => !INSTALL.has(scope));
  if (left.length === 0) {
    await deauthorizeIn(change, input);
    return;
  }
  await tx.oAuth2Authorization.update({ where: { id: row.id }, data: { scopes: left.join(" "), updatedAt: new Date() } });
  const live = await tx.token.findMany({ where: { authorizationId: row.id, revokedAt: null }, select: { id: true, scopes: true } });
  const ids = live.filter((token) => parseScopeList(token.scopes).some((scope) => INSTALL.has(scope))).map((token) => token.id);
  await revokeTokensIn(change, { id: { in: ids } });
}
