import { z } from "zod";

export const DATA_URI = /^data:image\/(png|jpeg|jpg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/;

/** `?image data` in request bodies: a base64 image data URI, or null to clear. Browser-safe. */
export const ZImageDataSchema = z
  .string()
  .refine((value) => DATA_URI.test(value), { message: "Invalid image data", params: { code: "IMAGE_INVALID" } })
  .nullable();
