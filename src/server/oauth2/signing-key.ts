// The RS256 key that signs OpenID Connect id_tokens. Made once, by whichever instance needs it
// first: its row's fixed primary key makes the first insert the only one, and every instance
// then reads the same key.
import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from "jose";
import { randomBytes } from "node:crypto";
import type { Db } from "~/server/db/client.ts";
import { isUniqueViolation } from "~/server/db/prisma-errors.ts";
import { runChange } from "~/server/events/change.ts";

export const ID_TOKEN_ALGORITHM = "RS256";
const PURPOSE = "id_token";

export type SigningKey = { kid: string; privateKey: CryptoKey; publicJwk: JWK };

/** The id_token signing key, made now if no instance has made it yet. */
export async function idTokenSigningKey(db: Db): Promise<SigningKey> {
  const row = (await db.oAuth2SigningKey.findUnique({ where: { id: PURPOSE } })) ?? (await createKey(db));
  const privateKey = (await importJWK(JSON.parse(row.privateJwk) as JWK, ID_TOKEN_ALGORITHM)) as CryptoKey;
  return { kid: row.kid, privateKey, publicJwk: JSON.parse(row.publicJwk) as JWK };
}

async function createKey(db: Db) {
  const { privateKey, publicKey } = await generateKeyPair(ID_TOKEN_ALGORITHM, { extractable: true });
  const kid = randomBytes(12).toString("base64url");
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ID_TOKEN_ALGORITHM, use: "sig" };
  const privateJwk = JSON.stringify(await exportJWK(privateKey));
  try {
    return await runChange({ db, actor: null }, ({ tx }) =>
      tx.oAuth2SigningKey.create({ data: { id: PURPOSE, kid, privateJwk, publicJwk: JSON.stringify(publicJwk) } }),
    );
  } catch (error) {
    // Another instance made it first: theirs is the key.
    if (isUniqueViolation(error)) return db.oAuth2SigningKey.findUniqueOrThrow({ where: { id: PURPOSE } });
    throw error;
  }
}

/** The JWKS served at /oauth2/keys: the public half of every signing key. */
export async function jsonWebKeySet(db: Db): Promise<{ keys: JWK[] }> {
  const { publicJwk } = await idTokenSigningKey(db);
  return { keys: [publicJwk] };
}
