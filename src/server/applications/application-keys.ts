// An application's Ed25519 key pair: the public key is its verify_key (hex, as the platform
// shows it), the private key signs its outgoing event webhooks. Made with the application;
// applications made before keys existed get theirs on first need.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from "node:crypto";
import type { Db } from "~/server/db/client.ts";
import { InternalEvents } from "~/server/events/event-map.ts";
import { runChange } from "~/server/events/change.ts";

/** The raw 32-byte Ed25519 public key sits at the end of its SPKI DER encoding. */
const RAW_PUBLIC_KEY_BYTES = 32;

export function newApplicationKeys(): { verifyKey: string; signingKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const spki = publicKey.export({ format: "der", type: "spki" });
  return {
    verifyKey: spki.subarray(spki.length - RAW_PUBLIC_KEY_BYTES).toString("hex"),
    signingKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
  };
}

/** The application's keys, made now (once, whoever asks first, in a change of its own) if it has none yet. */
export async function applicationKeys(db: Db, applicationId: string): Promise<{ verifyKey: string; signingKey: string }> {
  const row = await db.application.findUniqueOrThrow({ where: { id: applicationId }, select: { verifyKey: true, signingKey: true } });
  if (row.verifyKey && row.signingKey) return { verifyKey: row.verifyKey, signingKey: row.signingKey };
  const keys = newApplicationKeys();
  await runChange({ db, actor: null }, async ({ tx, emit }) => {
    const { count } = await tx.application.updateMany({ where: { id: applicationId, verifyKey: null }, data: keys });
    if (count === 1) await emit(InternalEvents.ApplicationUpdated, { application_id: applicationId });
  });
  const made = await db.application.findUniqueOrThrow({ where: { id: applicationId }, select: { verifyKey: true, signingKey: true } });
  return { verifyKey: made.verifyKey!, signingKey: made.signingKey! };
}

/** The Ed25519 signature (hex) of `timestamp + body`, as X-Signature-Ed25519 carries it. */
export function signWithApplicationKey(signingKey: string, timestamp: string, body: string): string {
  const key = createPrivateKey({ key: Buffer.from(signingKey, "base64"), format: "der", type: "pkcs8" });
  return sign(null, Buffer.from(timestamp + body), key).toString("hex");
}

/** A hex verify_key as a public key object, for checking signatures (tests, receivers). */
export function verifyKeyObject(verifyKey: string) {
  const prefix = Buffer.from("302a300506032b6570032100", "hex"); // SPKI header of an Ed25519 key
  return createPublicKey({ key: Buffer.concat([prefix, Buffer.from(verifyKey, "hex")]), format: "der", type: "spki" });
}
