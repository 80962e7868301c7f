import type { Tx } from "~/server/db/client.ts";
import { imageHash, type ImageData } from "./image-data.ts";

/** CDN folders by what the image belongs to, as on the platform's CDN. */
export type ImageKind = "icons" | "splashes" | "discovery-splashes" | "banners" | "role-icons" | "avatars";

/** Stores an uploaded image under its CDN path and returns its hash. */
export async function storeImage(tx: Tx, kind: ImageKind, ownerId: string, image: ImageData): Promise<string> {
  const hash = imageHash(image);
  const path = `${kind}/${ownerId}/${hash}`;
  await tx.image.upsert({ where: { path }, create: { path, contentType: image.contentType, data: new Uint8Array(image.bytes) }, update: {} });
  return hash;
}

/** Reads `/cdn/{kind}/{owner}/{hash}.{ext}`; null when unknown. */
export async function readImage(db: Tx, pathname: string): Promise<{ contentType: string; data: Uint8Array } | null> {
  const match = /^\/cdn\/([a-z-]+)\/(\d{1,20})\/((?:a_)?[0-9a-f]{32})\.(png|jpe?g|gif|webp)$/.exec(pathname);
  if (!match) return null;
  const row = await db.image.findUnique({ where: { path: `${match[1]}/${match[2]}/${match[3]}` } });
  return row ? { contentType: row.contentType, data: row.data } : null;
}
