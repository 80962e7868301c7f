import type { Db } from "~/server/db/client.ts";
import { createUser } from "~/server/applications/application.service.ts";
import { runChange } from "~/server/events/change.ts";

export type ExternalIdentity = {
  /** Which issuer vouches for the identity, e.g. "oidc". */
  provider: string;
  /** The issuer's stable id for the person (`sub`). */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  preferredUsername: string | null;
};

const USERNAME_MAX = 32;

/** A platform-style username: lowercase letters, digits, `_` and `.`, 2–32 characters. */
function toUsername(identity: ExternalIdentity): string {
  const base = identity.preferredUsername ?? identity.email?.split("@")[0] ?? identity.displayName ?? "user";
  const cleaned = base
    .toLowerCase()
    .replace(/[^a-z0-9_.]/g, "_")
    .replace(/_+/g, "_")
    .slice(0, USERNAME_MAX);
  return cleaned.length >= 2 ? cleaned : `user_${cleaned}`;
}

/**
 * The platform user behind an external sign-in: the linked one, else the user with the
 * same e-mail when the issuer has verified it, else a new user. Linking by an unverified
 * address would let anyone who can register that address at the issuer take the account.
 */
export async function resolveExternalAccountUser(db: Db, identity: ExternalIdentity): Promise<string> {
  return runChange({ db, actor: null }, async ({ tx }) => {
    const key = { provider_subject: { provider: identity.provider, subject: identity.subject } };
    const linked = await tx.externalAccount.findUnique({ where: key, select: { userId: true } });
    if (linked) return linked.userId;

    const email = identity.email?.toLowerCase() ?? null;
    const holder = email ? await tx.user.findUnique({ where: { email }, select: { id: true, bot: true } }) : null;
    const userId =
      holder && identity.emailVerified && !holder.bot
        ? holder.id
        : // An address another account already holds stays with that account.
          (await createUser(tx, { username: toUsername(identity), globalName: identity.displayName, email: holder ? null : email })).id;
    await tx.externalAccount.create({ data: { provider: identity.provider, subject: identity.subject, userId } });
    return userId;
  });
}
