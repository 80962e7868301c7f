import { getDb } from "~/server/db/client.ts";
import { readImage } from "./image.service.ts";

/** Serves stored images at the platform's CDN-style paths: `/cdn/icons/{guild_id}/{hash}.png`. */
export async function serveCdn(request: Request): Promise<Response> {
  const image = await readImage(getDb(), new URL(request.url).pathname);
  if (!image) return new Response("Not Found", { status: 404 });
  return new Response(new Uint8Array(image.data), {
    headers: { "content-type": image.contentType, "cache-control": "public, max-age=31536000, immutable" },
  });
}
