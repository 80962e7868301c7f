// Unmerging (partner SDK): an identity merged into a full account is severed from it and
// signs in as a new provisional account again, which keeps the player's name and their
// lobbies in the application. The full account's tokens for the application stop working.
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange, type ChangeContext } from "~/server/events/change.ts";
import { deauthorizeIn } from "~/server/oauth2/grants.ts";
import { moveLobbyMemberships } from "./account-moves.ts";
import { verifyExternalCredential, type ExternalIdentityClaim } from "./external-credentials.ts";
import { BOT_ISSUED, type ExternalCredentialsBody } from "./partner-sdk.schema.ts";
import { botApplicationOf, createProvisionalUser, partnerClient } from "./provisional-accounts.service.ts";

/** POST /partner-sdk/provisional-accounts/unmerge: the player's external credentials name the identity. */
export async function unmergeWithCredentials(ctx: ChangeContext, body: ExternalCredentialsBody): Promise<void> {
  const application = await partnerClient(ctx.db, body);
  const claim = await verifyExternalCredential(ctx.db, application.id, body.external_auth_type, body.external_auth_token);
  await unmergeIdentity(ctx, application.id, claim);
}

/** POST /partner-sdk/provisional-accounts/unmerge/bot: the game's own player id names it. */
export async function unmergeWithBot(ctx: ServiceContext, body: { external_user_id: string }): Promise<void> {
  await unmergeIdentity(ctx, botApplicationOf(ctx.actor), { authType: BOT_ISSUED, subject: body.external_user_id });
}

async function unmergeIdentity(ctx: ChangeContext, applicationId: string, claim: Pick<ExternalIdentityClaim, "authType" | "subject">): Promise<void> {
  await runChange(ctx, async (change) => {
    const { tx } = change;
    const key = { applicationId_authType_subject: { applicationId, authType: claim.authType, subject: claim.subject } };
    const identity = await tx.externalIdentity.findUnique({ where: key, include: { user: true } });
    if (!identity) throw new ApiError("UNKNOWN_USER");
    const full = identity.user;
    if (full.provisionalApplicationId !== null) throw new ApiError("INVALID_USER_TYPE");
    // As deauthorizing the application: its tokens for the full account stop, its authorization goes.
    await deauthorizeIn(change, { applicationId, userId: full.id });
    const provisional = await createProvisionalUser(tx, applicationId, full.globalName ?? full.username);
    await tx.externalIdentity.update({ where: { id: identity.id }, data: { userId: provisional.id } });
    await moveLobbyMemberships(change, { applicationId, fromUserId: full.id, toUserId: provisional.id });
  });
}
