// Provisional accounts (partner SDK): a game's players without a platform login. An external
// identity signs in as its provisional account, made on first use, or is refused once it was
// merged into a full account (which signs in through OAuth2 instead).
import { randomBytes } from "node:crypto";
import type { User } from "~/generated/prisma/client.ts";
import type { Actor } from "~/server/auth/actor.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange, type Change, type ChangeContext } from "~/server/events/change.ts";
import { isClientSecret } from "~/server/oauth2/client-settings.ts";
import { signIdToken } from "~/server/oauth2/id-token.ts";
import { issueTokenPair, recordAuthorization, type TokenGrant } from "~/server/oauth2/grants.ts";
import { idTokenSigningKey } from "~/server/oauth2/signing-key.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { verifyExternalCredential, type ExternalIdentityClaim } from "./external-credentials.ts";
import { BOT_ISSUED, type ExternalCredentialsBody } from "./partner-sdk.schema.ts";

/** What a provisional account's token may do: the Social SDK's lobbies, friends and messages. */
const PROVISIONAL_SCOPES = ["sdk.social_layer"] as const;

/** The platform's provisional token response: a token grant with an id_token naming the account. */
export type ProvisionalTokenResponse = TokenGrant & { id_token: string };

/**
 * The application a partner SDK request names by its OAuth2 client: a confidential client
 * proves itself with its secret; a public client (a game without a backend) has none to send,
 * but a wrong one is still refused.
 */
export async function partnerClient(db: Db, body: Pick<ExternalCredentialsBody, "client_id" | "client_secret">) {
  const application = await db.application.findUnique({ where: { id: body.client_id } });
  if (!application) throw new ApiError("UNKNOWN_APPLICATION");
  const secret = body.client_secret ?? null;
  if (secret === null ? !application.publicClient : !isClientSecret(application, secret)) throw new ApiError("INVALID_CLIENT_SECRET");
  return application;
}

/** POST /partner-sdk/token: external credentials for the provisional account's token. */
export async function exchangeExternalCredentials(ctx: ChangeContext, body: ExternalCredentialsBody): Promise<ProvisionalTokenResponse> {
  const application = await partnerClient(ctx.db, body);
  const claim = await verifyExternalCredential(ctx.db, application.id, body.external_auth_type, body.external_auth_token);
  // The platform still answers OIDC exchanges with a refresh token, whose grant it refuses as deprecated.
  return provisionalToken(ctx, application.id, claim, claim.authType === "OIDC");
}

/** POST /partner-sdk/token/bot: the game's backend vouches for its own player id. */
export async function botProvisionalToken(
  ctx: ServiceContext,
  body: { external_user_id: string; preferred_global_name?: string | null | undefined },
): Promise<ProvisionalTokenResponse> {
  const applicationId = botApplicationOf(ctx.actor);
  return provisionalToken(ctx, applicationId, { authType: BOT_ISSUED, subject: body.external_user_id, displayName: body.preferred_global_name ?? null }, false);
}

export function botApplicationOf(actor: Actor): string {
  if (!actor.applicationId) throw new ApiError("UNAUTHORIZED");
  return actor.applicationId;
}

async function provisionalToken(ctx: ChangeContext, applicationId: string, claim: ExternalIdentityClaim, refresh: boolean): Promise<ProvisionalTokenResponse> {
  // Read before the change: the first use writes the key, which no event announces.
  const signingKey = await idTokenSigningKey(ctx.db);
  const { grant, user } = await runChange(ctx, async (change) => {
    const user = await provisionalAccountFor(change, applicationId, claim);
    const key = { applicationId_userId: { applicationId, userId: user.id } };
    const authorization =
      (await change.tx.oAuth2Authorization.findUnique({ where: key })) ??
      (await recordAuthorization(change, { applicationId, userId: user.id, scopes: PROVISIONAL_SCOPES }));
    const { accessTokenId: _, ...grant } = await issueTokenPair(change.tx, {
      applicationId,
      userId: user.id,
      scopes: PROVISIONAL_SCOPES,
      authorizationId: authorization.id,
      refresh,
    });
    return { grant, user };
  });
  const idToken = await signIdToken(signingKey, {
    user,
    clientId: applicationId,
    scopes: new Set(PROVISIONAL_SCOPES),
    nonce: null,
    accessToken: grant.access_token,
  });
  return { ...grant, id_token: idToken };
}

/**
 * The provisional account an identity signs in as, made with the identity on first use. An
 * identity merged into a full account is refused (530010): that account signs in through OAuth2.
 */
async function provisionalAccountFor(change: Change, applicationId: string, claim: ExternalIdentityClaim): Promise<User> {
  const key = { applicationId_authType_subject: { applicationId, authType: claim.authType, subject: claim.subject } };
  const identity = await change.tx.externalIdentity.findUnique({ where: key, include: { user: true } });
  if (identity) {
    if (identity.user.provisionalApplicationId !== applicationId) throw new ApiError("USER_NOT_PROVISIONAL");
    return identity.user;
  }
  const user = await createProvisionalUser(change.tx, applicationId, claim.displayName);
  await change.tx.externalIdentity.create({ data: { id: newId(), applicationId, authType: claim.authType, subject: claim.subject, userId: user.id } });
  return user;
}

/** A new provisional account of the application, with a generated username and the name the game or provider gave. */
export async function createProvisionalUser(tx: Tx, applicationId: string, globalName: string | null): Promise<User> {
  return tx.user.create({
    data: { id: newId(), username: `player_${randomBytes(6).toString("hex")}`, globalName, provisionalApplicationId: applicationId },
  });
}
