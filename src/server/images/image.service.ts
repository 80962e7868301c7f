import type { Tx } from "~/server/db/client.ts";
import { imageHash, type ImageData } from "./image-data.ts";

/** CDN folders by what the image belongs to, as on the platform's CDN. */
export type ImageKind = "icons" | "splashes" | "discovery-splashes" | "banners" | "role-icons" | "avatars" | "app-icons";

/** Stores an uploaded image under its CDN path and returns its hash. */
export async function storeImage(tx: Tx, kind: ImageKind, ownerId: string, image: ImageData): Promise<string> {
  return storeImageIn(tx, `${kind}/${ownerId}`, image);
}

/** A stored image by what it belongs to and its hash (a guild's icon: "icons", guild id, icon hash); null when unknown. */
export async function readOwnedImage(db: Tx, kind: ImageKind, ownerId: string, hash: string): Promise<{ contentType: string; data: Uint8Array } | null> {
  const row = await db.image.findUnique({ where: { path: `${kind}/${ownerId}/${hash}` } });
  return row ? { contentType: row.contentType, data: row.data } : null;
}

/** A member's guild avatar or banner folder, as on the platform's CDN. */
function memberImageFolder(guildId: string, userId: string, kind: "avatars" | "banners"): string {
  return `guilds/${guildId}/users/${userId}/${kind}`;
}

async function storeImageIn(tx: Tx, folder: string, image: ImageData): Promise<string> {
  const hash = imageHash(image);
  const path = `${folder}/${hash}`;
  await tx.image.upsert({ where: { path }, create: { path, contentType: image.contentType, data: new Uint8Array(image.bytes) }, update: {} });
  return hash;
}

/** Stores a member's guild avatar or banner and returns its hash. */
export async function storeMemberImage(tx: Tx, guildId: string, userId: string, kind: "avatars" | "banners", image: ImageData): Promise<string> {
  return storeImageIn(tx, memberImageFolder(guildId, userId, kind), image);
}

const IMAGE_PATH = /^\/cdn\/((?:[a-z-]+\/\d{1,20})|(?:guilds\/\d{1,20}\/users\/\d{1,20}\/(?:avatars|banners)))\/((?:a_)?[0-9a-f]{32})\.(png|jpe?g|gif|webp)$/;

/** Reads `/cdn/{kind}/{owner}/{hash}.{ext}` or `/cdn/guilds/{guild}/users/{user}/avatars/{hash}.{ext}`; null when unknown. */
export async function readImage(db: Tx, pathname: string): Promise<{ contentType: string; data: Uint8Array } | null> {
  const match = IMAGE_PATH.exec(pathname);
  if (!match) return null;
  const row = await db.image.findUnique({ where: { path: `${match[1]}/${match[2]}` } });
  return row ? { contentType: row.contentType, data: row.data } : null;
}

const ATTACHMENT_PATH = /^\/cdn\/(attachments\/\d{1,20}\/\d{1,20}\/[A-Za-z0-9._-]{1,1024})$/;

/** Reads a message attachment's file at `/cdn/attachments/{channel_id}/{attachment_id}/{filename}`; null when unknown. */
export async function readAttachmentFile(db: Tx, pathname: string): Promise<{ contentType: string; data: Uint8Array } | null> {
  const match = ATTACHMENT_PATH.exec(pathname);
  if (!match) return null;
  const row = await db.image.findUnique({ where: { path: match[1]! } });
  return row ? { contentType: row.contentType, data: row.data } : null;
}
