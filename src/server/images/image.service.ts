import type { Tx } from "~/server/db/client.ts";
import type { Change } from "~/server/events/change.ts";
import { isRemovalPending, keepStoredFile, removeStoredFiles } from "./file-removal.ts";
import { imageHash, type ImageData } from "./image-data.ts";

/** CDN folders by what the image belongs to, as on the platform's CDN. */
export type ImageKind = "icons" | "splashes" | "discovery-splashes" | "banners" | "role-icons" | "avatars" | "app-icons";

/** The folder of one holder's images, as on the platform's CDN: a guild's icons are `icons/{guild_id}`. */
export function imageFolder(kind: ImageKind, ownerId: string): string {
  return `${kind}/${ownerId}`;
}

/** A member's guild avatar or banner folder, as on the platform's CDN. */
export function memberImageFolder(guildId: string, userId: string, kind: "avatars" | "banners"): string {
  return `guilds/${guildId}/users/${userId}/${kind}`;
}

/** The stored path of an image in a holder's folder (the CDN path without `/cdn/` and extension). */
export function imagePath(folder: string, hash: string): string {
  return `${folder}/${hash}`;
}

/** Stores an uploaded image of a new holder under its CDN path and returns its hash. */
export async function storeImage(tx: Tx, kind: ImageKind, ownerId: string, image: ImageData): Promise<string> {
  return storeImageIn(tx, imageFolder(kind, ownerId), image);
}

async function storeImageIn(tx: Tx, folder: string, image: ImageData): Promise<string> {
  const hash = imageHash(image);
  const path = imagePath(folder, hash);
  await tx.image.upsert({ where: { path }, create: { path, contentType: image.contentType, data: new Uint8Array(image.bytes) }, update: {} });
  return hash;
}

/** Stores a file at a path of its own that never holds another (an emoji's or sticker's, named by its id). */
export async function storeFileAt(tx: Tx, path: string, file: { contentType: string; bytes: Buffer }): Promise<void> {
  await tx.image.create({ data: { path, contentType: file.contentType, data: new Uint8Array(file.bytes) } });
}

/**
 * A holder's image replaced (or cleared) in the caller's change, called after the holder's row
 * was written, so two edits of one holder follow each other: stores the new image, kept even if
 * it was being removed (an icon set back), and lets the replaced one go unless it is the same.
 */
export async function replaceImage(change: Change, folder: string, before: string | null, next: ImageData | null): Promise<void> {
  const hash = next && imageHash(next);
  if (next) {
    await keepStoredFile(change.tx, imagePath(folder, hash!));
    await storeImageIn(change.tx, folder, next);
  }
  if (before && before !== hash) await removeStoredFiles(change, [imagePath(folder, before)]);
}

/** The stored file at `path`, unless it is gone or going with its holder. */
export async function readStoredFile(db: Tx, path: string): Promise<{ contentType: string; data: Uint8Array } | null> {
  // The pending removal first: it goes in the same commit as the file, so a removal committing
  // between the two reads leaves the file unread rather than served.
  if (await isRemovalPending(db, path)) return null;
  const row = await db.image.findUnique({ where: { path } });
  return row && { contentType: row.contentType, data: row.data };
}

/** Whether the file at `path` is still served, read without its bytes (a CDN revalidation). */
export async function isStoredFileServed(db: Tx, path: string): Promise<boolean> {
  if (await isRemovalPending(db, path)) return false;
  return (await db.image.findUnique({ where: { path }, select: { path: true } })) !== null;
}

/** A stored image by what it belongs to and its hash (a guild's icon: "icons", guild id, icon hash); null when unknown. */
export async function readOwnedImage(db: Tx, kind: ImageKind, ownerId: string, hash: string): Promise<{ contentType: string; data: Uint8Array } | null> {
  return readStoredFile(db, imagePath(imageFolder(kind, ownerId), hash));
}

const IMAGE_PATH = /^\/cdn\/((?:[a-z-]+\/\d{1,20})|(?:guilds\/\d{1,20}\/users\/\d{1,20}\/(?:avatars|banners)))\/((?:a_)?[0-9a-f]{32})\.(png|jpe?g|gif|webp)$/;
// Emojis and stickers are named by their id, as on the platform's CDN; a Lottie sticker is JSON.
const EXPRESSION_PATH = /^\/cdn\/((?:emojis|stickers)\/\d{1,20})\.(png|jpe?g|gif|webp)$/;
const LOTTIE_PATH = /^\/cdn\/(stickers\/\d{1,20})\.json$/;
const ATTACHMENT_PATH = /^\/cdn\/(attachments\/\d{1,20}\/\d{1,20}\/[A-Za-z0-9._-]{1,1024})$/;

/**
 * What a CDN URL's path names: a stored path, and for an image (named by its content hash)
 * whether the hash marks it animated and the extension asked for; null when it names nothing.
 */
export type CdnPath = { path: string; image: { animated: boolean; extension: string } | null };

/**
 * Parses `/cdn/{kind}/{owner}/{hash}.{ext}`, `/cdn/guilds/{guild}/users/{user}/avatars/{hash}.{ext}`,
 * `/cdn/emojis/{id}.{ext}`, `/cdn/stickers/{id}.{ext|json}` or `/cdn/attachments/{channel_id}/{attachment_id}/{filename}`.
 */
export function parseCdnPath(pathname: string): CdnPath | null {
  const image = IMAGE_PATH.exec(pathname);
  if (image) return { path: imagePath(image[1]!, image[2]!), image: { animated: image[2]!.startsWith("a_"), extension: image[3]! } };
  // Any format of an emoji or sticker may be asked for, GIF too (a static one is served as one frame).
  const expression = EXPRESSION_PATH.exec(pathname);
  if (expression) return { path: expression[1]!, image: { animated: true, extension: expression[2]! } };
  const lottie = LOTTIE_PATH.exec(pathname);
  if (lottie) return { path: lottie[1]!, image: null };
  const attachment = ATTACHMENT_PATH.exec(pathname);
  return attachment ? { path: attachment[1]!, image: null } : null;
}

/** A stored image as a CDN URL names it: whether its hash marks it animated, and the extension asked for. */
export type CdnImage = { path: string; contentType: string; data: Uint8Array; animated: boolean; extension: string };

/** Reads `/cdn/{kind}/{owner}/{hash}.{ext}` or `/cdn/guilds/{guild}/users/{user}/avatars/{hash}.{ext}`; null when unknown. */
export async function readImage(db: Tx, pathname: string): Promise<CdnImage | null> {
  const parsed = parseCdnPath(pathname);
  if (!parsed?.image) return null;
  const stored = await readStoredFile(db, parsed.path);
  return stored && { path: parsed.path, ...stored, ...parsed.image };
}

/** Reads a message attachment's file at `/cdn/attachments/{channel_id}/{attachment_id}/{filename}`; null when unknown. */
export async function readAttachmentFile(db: Tx, pathname: string): Promise<{ contentType: string; data: Uint8Array } | null> {
  const parsed = parseCdnPath(pathname);
  return parsed && !parsed.image ? readStoredFile(db, parsed.path) : null;
}
