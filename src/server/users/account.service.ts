// A user's own account settings: who sees their custom status in presences.
import type { Db } from "~/server/db/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { ChangeContext } from "~/server/events/change.ts";
import { ApiError } from "~/server/errors.ts";
import { describeProfilePrivacy, PROFILE_PRIVACY, type ProfilePrivacy } from "~/server/gateway/presence-privacy.ts";
import { changePresence } from "~/server/presences/presence.service.ts";
import { parseProfilePrivacy, type TAccountSettings } from "./user.schema.ts";

/** The settings with each privacy choice's effect in words (gateway/presence-privacy.ts). */
export type AccountSettings = {
  profile_privacy: ProfilePrivacy;
  choices: { value: ProfilePrivacy; effect: string }[];
};

const CHOICES = PROFILE_PRIVACY.map((value) => ({ value, effect: describeProfilePrivacy(value) }));

/** A user's profile privacy; 10013 Unknown User for an id no user has. */
export async function readProfilePrivacy(db: Db, userId: string): Promise<ProfilePrivacy> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { profilePrivacy: true } });
  if (!user) throw new ApiError("UNKNOWN_USER");
  return parseProfilePrivacy(user.profilePrivacy);
}

/** Sets a user's profile privacy; their presences show the change in every guild where it changes what others see. */
export async function setProfilePrivacy(ctx: ChangeContext, userId: string, privacy: ProfilePrivacy): Promise<ProfilePrivacy> {
  await readProfilePrivacy(ctx.db, userId);
  await changePresence(ctx.db, userId, (tx) => tx.user.update({ where: { id: userId }, data: { profilePrivacy: privacy } }));
  return privacy;
}

/** The signed-in user's account settings. */
export async function getAccountSettings(ctx: ServiceContext): Promise<AccountSettings> {
  return { profile_privacy: await readProfilePrivacy(ctx.db, ctx.actor.userId), choices: CHOICES };
}

/** Changes the signed-in user's account settings. */
export async function updateAccountSettings(ctx: ServiceContext, input: TAccountSettings): Promise<AccountSettings> {
  return { profile_privacy: await setProfilePrivacy(ctx, ctx.actor.userId, input.profile_privacy), choices: CHOICES };
}
