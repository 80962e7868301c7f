import { createHash } from "node:crypto";
import type { Db } from "~/server/db/client.ts";
import type { HttpHandler, HttpRequest, HttpResponse } from "~/server/http/http-types.ts";
import { processRuntime } from "~/server/serving/process-serving.ts";
import { isStoredFileServed, parseCdnPath, readStoredFile } from "./image.service.ts";
import { parseVariant, renderImage, type ImageVariant } from "./image-variant.ts";

/**
 * How long caches keep a file before asking again (then a 304 from its ETag, or the 404 once it
 * is deleted). Never `immutable`: a cache must hear of a deletion, and must-revalidate keeps one
 * cut off from this server from serving a deleted file stale.
 * - Attachments for 5 minutes: they are what deleting a message, a moderator's removal or a
 *   ban's message deletion takes away, which has to hold within minutes.
 * - Images for an hour: their URL is the md5 of their bytes, handed out only with the object
 *   showing them (and old hashes in the audit log, to moderators), so a cached copy of a removed
 *   one reaches only people already shown it; icons shown on every page are revalidated hourly,
 *   each a 304 that neither reads nor converts the image.
 */
const ATTACHMENT_CACHE = "public, max-age=300, must-revalidate";
const IMAGE_CACHE = "public, max-age=3600, must-revalidate";
// Uploaded files are whatever their sender says; only images are shown inline, and nothing is sniffed.
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
/**
 * Every answer: read only as the type it names, and, opened as a page, allowed to load and
 * run nothing, in a sandbox (an uploaded HTML or SVG file cannot act as this origin).
 */
const CDN_HEADERS = { "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; sandbox" } as const;

/** A refusal or a 404, kept by no cache: a path deleted now may be stored again (an icon set back). */
function failure(status: number, message: string): HttpResponse {
  return { status, headers: { ...CDN_HEADERS, "content-type": "text/plain", "cache-control": "no-store" }, body: message };
}

/** The file's ETag: what is at a stored path never changes (images are named by their hash, attachments by a new id), so the path and variant name it. */
function entityTag(path: string, variant: ImageVariant | null): string {
  const key = variant ? `${path}.${variant.format}?${variant.size ?? ""}` : path;
  return `"${createHash("sha256").update(key).digest("base64url").slice(0, 27)}"`;
}

/** Whether If-None-Match names `etag` (weak comparison, as RFC 9110 has it for this header). */
function isCached(ifNoneMatch: string | null, etag: string): boolean {
  const tags = ifNoneMatch?.split(",").map((tag) => tag.trim().replace(/^W\//, "")) ?? [];
  return tags.some((tag) => tag === "*" || tag === etag);
}

/**
 * Serves stored images at the platform's CDN-style paths (`/cdn/icons/{guild_id}/{hash}.png`),
 * in the format the extension names at the `?size=` asked (image-variant.ts), and message
 * attachments at `/cdn/attachments/{channel_id}/{attachment_id}/{filename}`.
 */
export async function answerCdn(db: Db, request: HttpRequest): Promise<HttpResponse> {
  const queryStart = request.url.indexOf("?");
  const pathname = queryStart < 0 ? request.url : request.url.slice(0, queryStart);
  const named = parseCdnPath(pathname);
  if (!named) return failure(404, "Not Found");
  const variant = named.image && parseVariant(named.image, new URLSearchParams(queryStart < 0 ? "" : request.url.slice(queryStart)).get("size"));
  if (variant && "status" in variant) return failure(variant.status, variant.message);
  const etag = entityTag(named.path, variant);
  const cache = { ...CDN_HEADERS, "cache-control": named.image ? IMAGE_CACHE : ATTACHMENT_CACHE, etag };
  if (isCached(request.header("if-none-match"), etag))
    return (await isStoredFileServed(db, named.path)) ? { status: 304, headers: cache, body: null } : failure(404, "Not Found");
  const file = await readStoredFile(db, named.path);
  if (!file) return failure(404, "Not Found");
  if (named.image && variant) {
    const answer = await renderImage({ path: named.path, ...file, ...named.image }, variant);
    if ("status" in answer) return failure(answer.status, answer.message);
    return { status: 200, headers: { ...cache, "content-type": answer.contentType }, body: answer.data };
  }
  const inline = INLINE_TYPES.has(file.contentType);
  return { status: 200, headers: { ...cache, "content-type": file.contentType, ...(!inline && { "content-disposition": "attachment" }) }, body: file.data };
}

/** The CDN on a database, as a handler. */
export function cdnHandler(db: () => Db): HttpHandler {
  return (request) => answerCdn(db(), request);
}

/** The CDN of this process's database. */
export const serveCdn: HttpHandler = cdnHandler(() => processRuntime().db);
