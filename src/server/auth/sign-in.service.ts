import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Tx } from "~/server/db/client.ts";
import type { RateLimiter } from "~/server/ratelimit/ratelimit.ts";
import { hashPassword, PASSWORD_MAX, verifyPassword } from "./password.ts";

/** An e-mail address is at most 254 characters (RFC 5321's path limit). */
const EMAIL_MAX = 254;

const ZCredentialsSchema = z.object({ email: z.string().trim().min(1).max(EMAIL_MAX), password: z.string().min(1).max(PASSWORD_MAX) });

/** Thrown when an address has had too many sign-in attempts; next-auth passes the message on. */
export class SignInRateLimitedError extends Error {
  constructor() {
    super("TooManyAttempts");
  }
}

/**
 * The client address a sign-in comes from, for its limits, from the request headers next-auth
 * passes on: the last X-Forwarded-For entry. `npm start` (server.ts) replaces that header with
 * the client it resolved under TRUSTED_PROXIES, so a client cannot choose it.
 */
export function signInClientAddress(headers: Record<string, unknown> | undefined): string {
  const forwarded = headers?.["x-forwarded-for"];
  const list = Array.isArray(forwarded) ? forwarded.join(",") : typeof forwarded === "string" ? forwarded : "";
  return (
    list
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean)
      .at(-1) ?? "unknown"
  );
}

// Unknown e-mails are checked against this hash too, so the answer takes as long as for a
// wrong password and does not reveal which addresses have accounts.
let decoyHash: Promise<string> | undefined;

/**
 * Dashboard sign-in with e-mail and password: the user, or null when they don't match.
 * Before a password is hashed, three limits apply: attempts at one e-mail address from one
 * client address (passwords can't be guessed at speed, and nobody elsewhere can lock the
 * owner out), attempts from one client address (trying many e-mail addresses), and hashes
 * of every sign-in together (the CPU sign-in may take).
 */
export async function signInWithPassword(deps: { db: Tx; limiter: RateLimiter }, credentials: unknown, clientAddress: string) {
  const parsed = ZCredentialsSchema.safeParse(credentials);
  if (!parsed.success) return null;
  const email = parsed.data.email.toLowerCase();
  for (const [bucket, key] of [
    ["signinClient", clientAddress],
    ["signin", `${email} ${clientAddress}`],
    ["signinHashes", "all"],
  ] as const) {
    if ((await deps.limiter.consume(bucket, bucket, key)).limited) throw new SignInRateLimitedError();
  }
  const user = await deps.db.user.findUnique({ where: { email } });
  decoyHash ??= hashPassword(randomBytes(16).toString("hex"));
  const valid = await verifyPassword(parsed.data.password, user?.passwordHash ?? (await decoyHash));
  if (!user?.passwordHash || user.bot || !valid) return null;
  return { id: user.id, name: user.globalName ?? user.username, email: user.email };
}
