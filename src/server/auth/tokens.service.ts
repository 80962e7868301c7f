import { InternalEvents } from "~/server/events/event-map.ts";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db, Tx } from "~/server/db/client.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { runChange, type Change, type ChangeContext } from "~/server/events/change.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import type { TokenRecord } from "~/server/state/state-cache-store.ts";
import type { Actor, OAuth2Scope } from "./actor.ts";

// A token is "<base64url(token id)>.<secret>": the id finds the row, the secret is
// checked against its stored SHA-256 in constant time. Secrets are 256 random bits,
// so a fast hash is enough; the plain token is shown once and never stored.

function hashSecret(secret: string): Buffer {
  return createHash("sha256").update(secret).digest();
}

function formatToken(id: string, secret: string): string {
  return `${Buffer.from(id).toString("base64url")}.${secret}`;
}

/** The id part of a token, or null when it is not one of ours. */
export function tokenIdOf(token: string): string | null {
  const dot = token.indexOf(".");
  if (dot < 1) return null;
  const id = Buffer.from(token.slice(0, dot), "base64url").toString();
  return /^\d{1,20}$/.test(id) ? id : null;
}

type TokenKind = "bot" | "bearer" | "refresh";

/** Stores a new token in the caller's change and answers it with its row id; the plain token exists only in the answer. */
export async function issueToken(
  tx: Tx,
  data: {
    kind: TokenKind;
    userId: string;
    applicationId: string | null;
    scopes: readonly string[];
    expiresAt?: Date | null;
    authorizationId?: string | null;
    pairedTokenId?: string | null;
  },
): Promise<{ id: string; token: string }> {
  const id = newId();
  const secret = randomBytes(32).toString("base64url");
  await tx.token.create({
    data: {
      id,
      kind: data.kind,
      userId: data.userId,
      applicationId: data.applicationId,
      scopes: data.scopes.join(" "),
      secretHash: hashSecret(secret).toString("hex"),
      expiresAt: data.expiresAt ?? null,
      authorizationId: data.authorizationId ?? null,
      pairedTokenId: data.pairedTokenId ?? null,
    },
  });
  return { id, token: formatToken(id, secret) };
}

/**
 * The stored row of a token of this kind whose secret matches, revoked or expired or not (the
 * caller decides what those mean); null when it is not one. Uncached: for the token endpoint's
 * refresh and revoke, not for authenticating requests.
 */
export async function findStoredToken(db: Tx, token: string, kinds: readonly TokenKind[]) {
  const id = tokenIdOf(token);
  if (!id) return null;
  const row = await db.token.findUnique({ where: { id } });
  if (!row || !kinds.includes(row.kind as TokenKind)) return null;
  const expected = Buffer.from(row.secretHash, "hex");
  const actual = hashSecret(token.slice(token.indexOf(".") + 1));
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? row : null;
}

/** A new bot token for an application's bot user, in the caller's change; earlier tokens stay valid. */
export async function createBotToken(tx: Tx, application: { id: string; botUserId: string }): Promise<string> {
  return (await issueToken(tx, { kind: "bot", userId: application.botUserId, applicationId: application.id, scopes: [] })).token;
}

/** A new OAuth2 bearer token for a user with the given scopes, in the caller's change. */
export async function createBearerToken(
  tx: Tx,
  input: { userId: string; applicationId: string | null; scopes: readonly OAuth2Scope[]; expiresAt?: Date | null },
): Promise<string> {
  return (await issueToken(tx, { kind: "bearer", ...input })).token;
}

async function readToken(db: Db, id: string): Promise<TokenRecord | null> {
  const row = await db.token.findUnique({
    where: { id },
    select: {
      kind: true,
      secretHash: true,
      userId: true,
      applicationId: true,
      scopes: true,
      expiresAt: true,
      revokedAt: true,
      user: { select: { bannedUntil: true } },
    },
  });
  if (!row || (row.kind !== "bot" && row.kind !== "bearer")) return null;
  const actor: Actor = Object.freeze({
    kind: row.kind,
    userId: row.userId,
    applicationId: row.applicationId,
    scopes: new Set(row.scopes ? row.scopes.split(" ") : []),
  });
  return {
    kind: row.kind,
    secretHash: Buffer.from(row.secretHash, "hex"),
    expiresAt: row.expiresAt,
    isRevoked: row.revokedAt !== null,
    bannedUntil: row.user.bannedUntil,
    actor,
  };
}

/**
 * Resolves an `Authorization` header to an actor, or null when it is missing or invalid.
 * Tokens come from the process cache; expiry and the holder's ban are checked on every use,
 * and revocation, a ban and its lift drop them from every instance's cache (TOKENS_REVOKED).
 */
export async function authenticate(db: Db, header: string | null): Promise<Actor | null> {
  if (!header) return null;
  const space = header.indexOf(" ");
  if (space < 0) return null;
  const scheme = header.slice(0, space).toLowerCase();
  const kind = scheme === "bot" ? "bot" : scheme === "bearer" ? "bearer" : null;
  if (!kind) return null;
  const token = header.slice(space + 1).trim();
  const id = tokenIdOf(token);
  if (!id) return null;
  const record = await stateCache(db).token(id, () => readToken(db, id));
  if (record?.kind !== kind || record.isRevoked) return null;
  if (record.expiresAt !== null && record.expiresAt.getTime() <= Date.now()) return null;
  if (record.bannedUntil !== null && record.bannedUntil.getTime() > Date.now()) return null;
  const actual = hashSecret(token.slice(token.indexOf(".") + 1));
  if (record.secretHash.length !== actual.length || !timingSafeEqual(record.secretHash, actual)) return null;
  return record.actor;
}

/**
 * Revokes the live tokens `where` selects, inside the caller's change: they stop working on every
 * instance at once (TOKENS_REVOKED). Answers the ids it revoked.
 */
export async function revokeTokensIn(change: Change, where: Prisma.TokenWhereInput): Promise<string[]> {
  const live = await change.tx.token.findMany({ where: { AND: [where, { revokedAt: null }] }, select: { id: true } });
  const ids = live.map((token) => token.id);
  if (ids.length === 0) return ids;
  await change.tx.token.updateMany({ where: { id: { in: ids }, revokedAt: null }, data: { revokedAt: new Date() } });
  await change.emit(InternalEvents.TokensRevoked, { token_ids: ids });
  return ids;
}

/** Revokes tokens by id; they stop working on every instance at once. Returns how many were live. */
export async function revokeTokens(ctx: ChangeContext, tokenIds: readonly string[]): Promise<number> {
  if (tokenIds.length === 0) return 0;
  return runChange(ctx, async (change) => (await revokeTokensIn(change, { id: { in: [...tokenIds] } })).length);
}

/** Resets an application's bot token: every earlier bot token stops working; returns the new one (shown once). */
export async function resetBotToken(ctx: ChangeContext, application: { id: string; botUserId: string }): Promise<string> {
  return runChange(ctx, async (change) => {
    await revokeTokensIn(change, { applicationId: application.id, kind: "bot" });
    return createBotToken(change.tx, application);
  });
}
