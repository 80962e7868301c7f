// Apart from the multipart parser, so schemas that name a file (sticker.schema.ts) stay importable by the dashboard's forms.

/** An uploaded file: its bytes, with the name and type its part declared. */
export type FormFile = Buffer & { filename: string; contentType: string };

export function isFormFile(value: unknown): value is FormFile {
  return Buffer.isBuffer(value) && typeof (value as Partial<FormFile>).filename === "string";
}
