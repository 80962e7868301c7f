import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Tx } from "~/server/db/client.ts";
import type { RateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { hashPassword, verifyPassword } from "./password.ts";

const ZCredentials = z.object({ email: z.string().trim().min(1), password: z.string().min(1) });

/** Thrown when an address has had too many sign-in attempts; next-auth passes the message on. */
export class SignInRateLimitedError extends Error {
  constructor() {
    super("TooManyAttempts");
  }
}

// Unknown e-mails are checked against this hash too, so the answer takes as long as for a
// wrong password and does not reveal which addresses have accounts.
let decoyHash: Promise<string> | undefined;

/**
 * Dashboard sign-in with e-mail and password: the user, or null when they don't match.
 * Attempts per address are limited (the "signin" bucket) so passwords can't be guessed at speed.
 */
export async function signInWithPassword(deps: { db: Tx; limiter: RateLimiter }, credentials: unknown) {
  const parsed = ZCredentials.safeParse(credentials);
  if (!parsed.success) return null;
  const email = parsed.data.email.toLowerCase();
  if ((await deps.limiter.consume("signin", "signin", email)).limited) throw new SignInRateLimitedError();
  const user = await deps.db.user.findUnique({ where: { email } });
  decoyHash ??= hashPassword(randomBytes(16).toString("hex"));
  const valid = await verifyPassword(parsed.data.password, user?.passwordHash ?? (await decoyHash));
  if (!user?.passwordHash || user.bot || !valid) return null;
  return { id: user.id, name: user.globalName ?? user.username, email: user.email };
}
