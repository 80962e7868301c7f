// grant_type=authorization_code (RFC 6749 4.1.3): a code approved on the authorize page, bound
// to its client, its redirect URI and its PKCE challenge, exchanged once for a token pair and
// what approving made (the guild a bot joined, the incoming webhook) and, with openid, an id_token.
import { revokeTokensIn } from "~/server/auth/tokens.service.ts";
import type { OAuth2Code } from "~/generated/prisma/client.ts";
import { runChange } from "~/server/events/change.ts";
import type { Tx } from "~/server/db/client.ts";
import { GUILD_OBJECT_INCLUDE, toGuildObject } from "~/server/guilds/guild.dto.ts";
import { mergeProvisionalAccount, verifyMergeCredential } from "~/server/partner-sdk/provisional-merge.ts";
import { toWebhookObject } from "~/server/webhooks/webhook.dto.ts";
import { consumeCode, issueTokenPair, secretDigest } from "../grants.ts";
import { signIdToken } from "../id-token.ts";
import { idTokenSigningKey } from "../signing-key.ts";
import { OAuth2Error } from "../oauth2-error.ts";
import { pkceDenial } from "../pkce.ts";
import { parseScopeList } from "../scopes.ts";
import { optionalParam, requiredParam } from "../token-request.ts";
import type { Grant, GrantRequest } from "./grant.ts";

const invalidGrant = (description: string) => new OAuth2Error("invalid_grant", description);

export const authorizationCodeGrant: Grant = async (request) => {
  const { db, form } = request;
  const code = requiredParam(form, "code");
  // Taken before anything is checked: a code presented wrongly is spent all the same.
  const taken = await runChange({ db, actor: null }, ({ tx }) => consumeCode(tx, code));
  if (taken === "replayed") {
    await revokeWhatCodeGave(request, code);
    throw invalidGrant("The authorization code was already used; the tokens it gave are revoked.");
  }
  if (!taken) throw invalidGrant("The authorization code is unknown or expired.");
  const denial = codeDenial(request, taken);
  if (denial) throw invalidGrant(denial);

  const scopes = parseScopeList(taken.scopes);
  // Read (or made, the first time) before the transaction: making an RSA key takes a while.
  const signingKey = scopes.includes("openid") ? await idTokenSigningKey(db) : null;
  const merge = provisionalMergeOf(request.form);
  // Verified before the change: an OIDC id_token's keys are fetched from its provider.
  const mergeClaim = merge && (await verifyMergeCredential(db, { applicationId: taken.applicationId, ...merge }));
  const { grant, made, user } = await runChange({ db, actor: null }, async (change) => {
    const { tx } = change;
    // Deauthorized since it was approved: the code no longer stands for anything.
    if (!(await tx.oAuth2Authorization.findUnique({ where: { id: taken.authorizationId } }))) throw invalidGrant("The authorization was revoked.");
    // A game's player signing in: their provisional account becomes part of this full account, or nothing is issued.
    if (mergeClaim) await mergeProvisionalAccount(change, { applicationId: taken.applicationId, userId: taken.userId, claim: mergeClaim });
    const { accessTokenId, ...grant } = await issueTokenPair(tx, {
      applicationId: taken.applicationId,
      userId: taken.userId,
      scopes,
      authorizationId: taken.authorizationId,
      refresh: true,
    });
    await tx.oAuth2Code.update({ where: { id: taken.id }, data: { tokenId: accessTokenId } });
    const user = signingKey ? await tx.user.findUniqueOrThrow({ where: { id: taken.userId } }) : null;
    return { grant, made: await madeByApproval(tx, taken), user };
  });
  const idToken =
    signingKey && user
      ? await signIdToken(signingKey, { user, clientId: taken.applicationId, scopes: new Set(scopes), nonce: taken.nonce, accessToken: grant.access_token })
      : null;
  return { ...grant, ...made, ...(idToken && { id_token: idToken }) };
};

/** The player's external credentials when the request merges their provisional account (both or neither). */
function provisionalMergeOf(form: GrantRequest["form"]): { externalAuthType: string; externalAuthToken: string } | null {
  const externalAuthType = optionalParam(form, "external_auth_type");
  const externalAuthToken = optionalParam(form, "external_auth_token");
  if (externalAuthType === undefined && externalAuthToken === undefined) return null;
  if (externalAuthType === undefined || externalAuthToken === undefined)
    throw new OAuth2Error("invalid_request", "external_auth_type and external_auth_token go together.");
  return { externalAuthType, externalAuthToken };
}

/** Why the code cannot be exchanged by this request, or null. */
function codeDenial({ client, form }: GrantRequest, code: OAuth2Code): string | null {
  if (code.applicationId !== client.application.id) return "The authorization code was issued to another client.";
  if ((optionalParam(form, "redirect_uri") ?? null) !== code.redirectUri) return "redirect_uri does not match the authorization request's.";
  if (client.method === "none" && code.codeChallenge === null) return "A public client must use PKCE.";
  return pkceDenial(code, optionalParam(form, "code_verifier"));
}

/** The guild the bot joined and the incoming webhook created on approval, as the response carries them. */
async function madeByApproval(tx: Tx, code: OAuth2Code) {
  const guild = code.guildId ? await tx.guild.findUnique({ where: { id: code.guildId }, include: GUILD_OBJECT_INCLUDE }) : null;
  const webhook = code.webhookId ? await tx.webhook.findUnique({ where: { id: code.webhookId } }) : null;
  return {
    ...(guild && { guild: toGuildObject(guild, guild.roles, guild) }),
    ...(webhook && { webhook: toWebhookObject(webhook, { withToken: true }) }),
  };
}

/** RFC 6749 4.1.2: a code used twice revokes the token it was exchanged for, and that token's refresh token. */
async function revokeWhatCodeGave({ db }: GrantRequest, code: string): Promise<void> {
  const row = await db.oAuth2Code.findUnique({ where: { id: secretDigest(code) }, select: { tokenId: true } });
  if (!row?.tokenId) return;
  const tokenId = row.tokenId;
  await runChange({ db, actor: null }, (change) => revokeTokensIn(change, { OR: [{ id: tokenId }, { pairedTokenId: tokenId }] }));
}
