import { sniffImageFormat, type ImageFormat } from "~/server/images/image-format.ts";

/**
 * The file as a data URI of the image type its bytes are, as the service checks them; a file
 * that only claims to be one of `formats` (by its name or type) is refused with `refusal`,
 * before any preview.
 */
export async function readImageFile(file: File, formats: readonly ImageFormat[], refusal: string): Promise<string> {
  const format = sniffImageFormat(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  if (!format || !formats.includes(format)) throw new Error(refusal);
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(new Blob([file], { type: `image/${format}` }));
  });
}
