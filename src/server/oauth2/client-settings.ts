// An application's OAuth2 client: its secret (shown once when reset, only a digest stored)
// and its registered redirect URIs. The dashboard's portal, the CLI and bootstrap share these.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Tx } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { InternalEvents } from "~/server/events/event-map.ts";
import { runChange, type ChangeContext } from "~/server/events/change.ts";
import { secretDigest } from "./grants.ts";

/** How many redirect URIs an application may register. */
export const REDIRECT_URIS_MAX = 10;
const REDIRECT_URI_MAX_LENGTH = 2048;

/**
 * A redirect URI as the platform takes it: absolute, http(s) or an app's own scheme
 * (`mygame://callback`), without a fragment (RFC 6749 3.1.2).
 */
const ZRedirectUriSchema = z
  .string()
  .trim()
  .max(REDIRECT_URI_MAX_LENGTH)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.hash === "" && !value.includes("#") && /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) && !/^(javascript|data|file|vbscript):$/.test(url.protocol);
    } catch {
      return false;
    }
  }, "Not a valid redirect URI: an absolute URL without a fragment.");

const ZRedirectUrisSchema = z.array(ZRedirectUriSchema).max(REDIRECT_URIS_MAX, `An application may register at most ${REDIRECT_URIS_MAX} redirect URIs.`);

/** The application's registered redirect URIs, in the order they were added. */
export function redirectUrisOf(application: { redirectUris: string }): string[] {
  const parsed = ZRedirectUrisSchema.safeParse(JSON.parse(application.redirectUris));
  return parsed.success ? parsed.data : [];
}

/** Whether a client secret is the application's current one (constant time); false while it has none. */
export function isClientSecret(application: { clientSecretHash: string | null }, secret: string): boolean {
  if (!application.clientSecretHash) return false;
  const expected = Buffer.from(application.clientSecretHash, "hex");
  const actual = Buffer.from(secretDigest(secret), "hex");
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A new client secret; the previous one stops working. Answered once, never stored in plain. */
export async function resetClientSecret(ctx: ChangeContext, applicationId: string): Promise<string> {
  const secret = randomBytes(24).toString("base64url");
  await writeClient(ctx, applicationId, { clientSecretHash: secretDigest(secret) });
  return secret;
}

/** Replaces the registered redirect URIs (each valid, at most REDIRECT_URIS_MAX, repeats dropped). */
export async function setRedirectUris(ctx: ChangeContext, applicationId: string, uris: readonly string[]): Promise<string[]> {
  const parsed = ZRedirectUrisSchema.safeParse([...new Set(uris.map((uri) => uri.trim()))]);
  if (!parsed.success) throw invalidField(["redirect_uris"], "BASE_TYPE_BAD_VALUE", parsed.error.issues[0]?.message ?? "Invalid redirect URIs.");
  await writeClient(ctx, applicationId, { redirectUris: JSON.stringify(parsed.data) });
  return parsed.data;
}

/** Adds or removes one redirect URI (the CLI's form of setRedirectUris). */
export async function changeRedirectUri(ctx: ChangeContext, applicationId: string, change: { add: string } | { remove: string }): Promise<string[]> {
  const application = await readClient(ctx.db, applicationId);
  const current = redirectUrisOf(application);
  const next = "add" in change ? [...current, change.add] : current.filter((uri) => uri !== change.remove.trim());
  return setRedirectUris(ctx, applicationId, next);
}

async function readClient(db: Tx, applicationId: string) {
  const application = await db.application.findUnique({ where: { id: applicationId }, select: { redirectUris: true } });
  if (!application) throw new ApiError("UNKNOWN_APPLICATION");
  return application;
}

/** Writes client columns in one change; APPLICATION_UPDATED drops the application from every cache. */
async function writeClient(ctx: ChangeContext, applicationId: string, data: { clientSecretHash: string } | { redirectUris: string }): Promise<void> {
  await runChange(ctx, async ({ tx, emit }) => {
    const { count } = await tx.application.updateMany({ where: { id: applicationId }, data });
    if (count === 0) throw new ApiError("UNKNOWN_APPLICATION");
    await emit(InternalEvents.ApplicationUpdated, { application_id: applicationId });
  });
}
