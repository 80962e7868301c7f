import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Tx } from "~/server/db/client.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
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

async function issueToken(db: Tx, data: { kind: "bot" | "bearer"; userId: string; applicationId: string | null; scopes: readonly string[]; expiresAt?: Date | null }): Promise<string> {
  const id = newId();
  const secret = randomBytes(32).toString("base64url");
  await db.token.create({
    data: { id, kind: data.kind, userId: data.userId, applicationId: data.applicationId, scopes: data.scopes.join(" "), secretHash: hashSecret(secret).toString("hex"), expiresAt: data.expiresAt ?? null },
  });
  return formatToken(id, secret);
}

/** A new bot token for an application's bot user; earlier tokens stay valid. */
export async function createBotToken(db: Tx, application: { id: string; botUserId: string }): Promise<string> {
  return issueToken(db, { kind: "bot", userId: application.botUserId, applicationId: application.id, scopes: [] });
}

/** A new OAuth2 bearer token for a user with the given scopes. */
export async function createBearerToken(db: Tx, input: { userId: string; applicationId: string | null; scopes: readonly OAuth2Scope[]; expiresAt?: Date | null }): Promise<string> {
  return issueToken(db, { kind: "bearer", ...input });
}

/** Resolves an `Authorization` header to an actor, or null when it is missing or invalid. */
export async function authenticate(db: Tx, header: string | null): Promise<Actor | null> {
  if (!header) return null;
  const space = header.indexOf(" ");
  if (space < 0) return null;
  const scheme = header.slice(0, space).toLowerCase();
  const kind = scheme === "bot" ? "bot" : scheme === "bearer" ? "bearer" : null;
  if (!kind) return null;
  const token = header.slice(space + 1).trim();
  const dot = token.indexOf(".");
  if (dot < 1) return null;
  const id = Buffer.from(token.slice(0, dot), "base64url").toString();
  if (!/^\d{1,20}$/.test(id)) return null;
  const row = await db.token.findUnique({ where: { id }, select: { kind: true, secretHash: true, userId: true, applicationId: true, scopes: true, expiresAt: true, revokedAt: true } });
  if (!row || row.kind !== kind || row.revokedAt) return null;
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return null;
  const expected = Buffer.from(row.secretHash, "hex");
  const actual = hashSecret(token.slice(dot + 1));
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return { kind, userId: row.userId, applicationId: row.applicationId, scopes: new Set(row.scopes ? row.scopes.split(" ") : []) };
}
