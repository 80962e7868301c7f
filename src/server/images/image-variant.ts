// The platform's CDN answers an image in the format its URL's extension names and, with
// `?size=`, scaled to that size; the stored upload is one file in its own format.
import { LRUCache } from "lru-cache";
import { CACHES } from "~/server/runtime/cache-registry.ts";
import type { ImageFormat } from "./image-format.ts";
import type { CdnImage } from "./image.service.ts";

/** What a CDN image URL asks for: a format (its extension) and a size, or the image as stored. */
export type ImageVariant = { format: ImageFormat; size: number | null };

type Rendered = { contentType: string; data: Uint8Array };

/** Why a variant cannot be served: the platform's answers to a bad size or an impossible format. */
export type VariantRefusal = { status: 400 | 415; message: string };

const MIN_SIZE = 16;
const MAX_SIZE = 4096;

/**
 * The variant a CDN URL asks for: the format of its extension, and `size`, a power of two from
 * 16 to 4096, or absent. GIF only for animated images (`a_` hashes), as on the platform.
 */
export function parseVariant(image: { extension: string; animated: boolean }, size: string | null): ImageVariant | VariantRefusal {
  const format = image.extension === "jpg" ? "jpeg" : (image.extension as ImageFormat);
  if (format === "gif" && !image.animated) return { status: 415, message: "Unsupported Media Type" };
  if (size === null) return { format, size: null };
  const value = /^\d{1,4}$/.test(size) ? Number(size) : NaN;
  // A power of two has one bit set.
  if (!(value >= MIN_SIZE && value <= MAX_SIZE && (value & (value - 1)) === 0)) return { status: 400, message: "Invalid size" };
  return { format, size: value };
}

// Icons are requested over and over in a few sizes; converting once per process is enough. The
// key names the stored file (its hash is of its bytes), so an entry never goes stale.
const rendered = new LRUCache<string, Rendered>({ maxSize: CACHES.imageVariants.maxSize, sizeCalculation: (entry) => Math.max(1, entry.data.byteLength) });

// Decoding an upload of a few megabytes may claim far more memory as pixels; icons never need more.
const MAX_INPUT_PIXELS = 8192 * 8192;

/**
 * The stored image as the URL asks: as stored when format and size match it, else converted
 * (the first frame of an animated image unless GIF is asked).
 */
export async function renderImage(stored: CdnImage, variant: ImageVariant): Promise<Rendered | VariantRefusal> {
  if (variant.size === null && stored.contentType === `image/${variant.format}`) return stored;
  const key = `${stored.path}.${variant.format}?${variant.size ?? ""}`;
  const cached = rendered.get(key);
  if (cached) return cached;
  // Loaded on the first conversion: a process that never converts never loads libvips.
  const { default: sharp } = await import("sharp");
  let pipeline = sharp(stored.data, { animated: variant.format === "gif", limitInputPixels: MAX_INPUT_PIXELS });
  if (variant.size !== null) pipeline = pipeline.resize({ width: variant.size, height: variant.size, fit: "inside", withoutEnlargement: true });
  // JPEG has no transparency: what was transparent shows white, not black.
  if (variant.format === "jpeg") pipeline = pipeline.flatten({ background: "#ffffff" });
  try {
    const data = await pipeline.toFormat(variant.format).toBuffer();
    const result = { contentType: `image/${variant.format}`, data };
    rendered.set(key, result);
    return result;
  } catch {
    // Stored uploads were checked by their header only; one libvips cannot decode is not servable.
    return { status: 415, message: "Unsupported Media Type" };
  }
}
