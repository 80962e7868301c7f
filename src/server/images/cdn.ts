import { getDb } from "~/server/db/client.ts";
import type { HttpHandler, HttpResponse } from "~/server/http/http-types.ts";
import { readImage } from "./image.service.ts";

/** Serves stored images at the platform's CDN-style paths: `/cdn/icons/{guild_id}/{hash}.png`. */
export const serveCdn: HttpHandler = async (request): Promise<HttpResponse> => {
  const queryStart = request.url.indexOf("?");
  const image = await readImage(getDb(), queryStart < 0 ? request.url : request.url.slice(0, queryStart));
  if (!image) return { status: 404, headers: { "content-type": "text/plain" }, body: "Not Found" };
  return { status: 200, headers: { "content-type": image.contentType, "cache-control": "public, max-age=31536000, immutable" }, body: image.data };
};
