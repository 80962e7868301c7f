import type { Db } from "~/server/db/client.ts";
import type { HttpHandler, HttpRequest, HttpResponse } from "~/server/http/http-types.ts";
import { processRuntime } from "~/server/runtime/next-runtime.ts";
import { readAttachmentFile, readImage } from "./image.service.ts";
import { parseVariant, renderImage } from "./image-variant.ts";

const CACHE = "public, max-age=31536000, immutable";
// Uploaded files are whatever their sender says; only images are shown inline, and nothing is sniffed.
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
/**
 * Every answer: read only as the type it names, and, opened as a page, allowed to load and
 * run nothing, in a sandbox (an uploaded HTML or SVG file cannot act as this origin).
 */
const CDN_HEADERS = { "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; sandbox" } as const;

/**
 * Serves stored images at the platform's CDN-style paths (`/cdn/icons/{guild_id}/{hash}.png`),
 * in the format the extension names at the `?size=` asked (image-variant.ts), and message
 * attachments at `/cdn/attachments/{channel_id}/{attachment_id}/{filename}`.
 */
export async function answerCdn(db: Db, request: HttpRequest): Promise<HttpResponse> {
  const queryStart = request.url.indexOf("?");
  const pathname = queryStart < 0 ? request.url : request.url.slice(0, queryStart);
  const image = await readImage(db, pathname);
  if (image) {
    const variant = parseVariant(image.extension, new URLSearchParams(queryStart < 0 ? "" : request.url.slice(queryStart)).get("size"));
    const answer = "status" in variant ? variant : await renderImage(image, variant);
    if ("status" in answer) return { status: answer.status, headers: { ...CDN_HEADERS, "content-type": "text/plain" }, body: answer.message };
    return { status: 200, headers: { ...CDN_HEADERS, "content-type": answer.contentType, "cache-control": CACHE }, body: answer.data };
  }
  const file = await readAttachmentFile(db, pathname);
  if (!file) return { status: 404, headers: { ...CDN_HEADERS, "content-type": "text/plain" }, body: "Not Found" };
  const inline = INLINE_TYPES.has(file.contentType);
  return {
    status: 200,
    headers: {
      ...CDN_HEADERS,
      "content-type": file.contentType,
      "cache-control": CACHE,
      ...(!inline && { "content-disposition": "attachment" }),
    },
    body: file.data,
  };
}

/** The CDN on a database, as a handler. */
export function cdnHandler(db: () => Db): HttpHandler {
  return (request) => answerCdn(db(), request);
}

/** The CDN of this process's database. */
export const serveCdn: HttpHandler = cdnHandler(() => processRuntime().db);
