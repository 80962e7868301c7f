// Merging a provisional account into the full account that links it (partner SDK): the
// token endpoint's authorization_code grant does it when the request carries the player's
// external credentials. The provisional account's lobbies, messages and identities pass to
// the full account in the caller's change, and the provisional account is removed.
import type { User } from "~/generated/prisma/client.ts";
import { ApiError, invalidField, type ErrorKey } from "~/server/errors.ts";
import type { Tx } from "~/server/db/client.ts";
import type { Change } from "~/server/events/change.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { moveLobbyMemberships, moveLobbyMessages, revokeAllTokensOf } from "./account-moves.ts";
import { verifyExternalCredential, type ExternalIdentityClaim } from "./external-credentials.ts";
import { ZExternalAuthTypeSchema } from "./partner-sdk.schema.ts";

export type MergeInput = {
  applicationId: string;
  /** The full account that authorized the application: the merge's destination. */
  userId: string;
  /** Who the player's external credentials say they are (verifyMergeCredential). */
  claim: ExternalIdentityClaim;
};

export type MergeResult = {
  /** The provisional account merged and removed; null when there was none (the identity is linked to the full account). */
  mergedUserId: string | null;
  /** Lobbies whose membership passed to the full account. */
  lobbyIds: string[];
};

type Account = Pick<User, "id" | "bot" | "provisionalApplicationId" | "bannedUntil">;

/**
 * Why this merge cannot be made, as the platform's error, or null. The destination must be a
 * full account of a person (530016); the source, when the identity has an account already,
 * a provisional account of the application (530014) whose ban does not stand (530017); and a
 * full account links one identity per application (530023).
 */
export function mergeDenial(input: {
  applicationId: string;
  destination: Account;
  source: Account | null;
  destinationHasOtherIdentity: boolean;
  now: Date;
}): ErrorKey | null {
  const { destination, source } = input;
  if (destination.bot || destination.provisionalApplicationId !== null) return "INVALID_MERGE_DESTINATION";
  if (source?.id === destination.id) return null;
  if (source && source.provisionalApplicationId !== input.applicationId) return "INVALID_MERGE_SOURCE";
  if (source?.bannedUntil && source.bannedUntil.getTime() > input.now.getTime()) return "MERGE_SOURCE_BANNED";
  if (input.destinationHasOtherIdentity) return "TOO_MANY_APPLICATION_IDENTITIES";
  return null;
}

/**
 * Verifies the token request's external_auth_type and external_auth_token before the merge's
 * change: an OIDC id_token is checked against its provider's keys, fetched over the network,
 * which no transaction should wait on. Throws the platform's errors (50035 for an unknown auth
 * type, 530xxx and 50025 for credentials).
 */
export async function verifyMergeCredential(
  db: Tx,
  input: { applicationId: string; externalAuthType: string; externalAuthToken: string },
): Promise<ExternalIdentityClaim> {
  const authType = ZExternalAuthTypeSchema.safeParse(input.externalAuthType);
  if (!authType.success) throw invalidField(["external_auth_type"], "BASE_TYPE_CHOICES", `Value must be one of ${ZExternalAuthTypeSchema.options.join(", ")}.`);
  return verifyExternalCredential(db, input.applicationId, authType.data, input.externalAuthToken);
}

/**
 * Merges the provisional account the verified identity signs in as into the full account,
 * inside the caller's change; refuses with the denials above.
 */
export async function mergeProvisionalAccount(change: Change, input: MergeInput): Promise<MergeResult> {
  const { tx } = change;
  const { claim } = input;
  const destination = await tx.user.findUnique({ where: { id: input.userId } });
  if (!destination) throw new ApiError("UNKNOWN_USER");
  const key = { applicationId_authType_subject: { applicationId: input.applicationId, authType: claim.authType, subject: claim.subject } };
  const identity = await tx.externalIdentity.findUnique({ where: key, include: { user: true } });
  const other = await tx.externalIdentity.findFirst({
    where: { applicationId: input.applicationId, userId: destination.id, ...(identity && { id: { not: identity.id } }) },
    select: { id: true },
  });
  const denial = mergeDenial({
    applicationId: input.applicationId,
    destination,
    source: identity?.user ?? null,
    destinationHasOtherIdentity: other !== null,
    now: new Date(),
  });
  if (denial) throw new ApiError(denial);
  if (!identity) {
    // No provisional account yet: the identity now signs in as the full account.
    await tx.externalIdentity.create({ data: { id: newId(), ...key.applicationId_authType_subject, userId: destination.id } });
    return { mergedUserId: null, lobbyIds: [] };
  }
  if (identity.userId === destination.id) return { mergedUserId: null, lobbyIds: [] };

  const move = { applicationId: input.applicationId, fromUserId: identity.userId, toUserId: destination.id };
  await revokeAllTokensOf(change, move.fromUserId);
  const lobbyIds = await moveLobbyMemberships(change, move);
  await moveLobbyMessages(change, move);
  await tx.externalIdentity.updateMany({ where: { userId: move.fromUserId }, data: { userId: destination.id } });
  // Its authorization, tokens and presences go with it.
  await tx.user.delete({ where: { id: move.fromUserId } });
  return { mergedUserId: move.fromUserId, lobbyIds };
}
