import { Readable } from "node:stream";
import busboy from "busboy";
import { ApiError } from "~/server/errors.ts";
import { MAX_BODY_BYTES } from "./http-types.ts";

/** A multipart/form-data body: text fields as strings, files as their bytes. */
export type FormBody = Record<string, string | Buffer>;

/** Parses a multipart/form-data body; 50035 when it is not one. */
export async function parseMultipart(body: Buffer, contentType: string): Promise<FormBody> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": contentType }, limits: { fileSize: MAX_BODY_BYTES, files: 10, fields: 50 } });
  } catch {
    throw new ApiError("INVALID_FORM_BODY", { message: "Invalid multipart form body" });
  }
  const form: FormBody = {};
  const files: Promise<void>[] = [];
  parser.on("field", (name, value) => {
    form[name] = value;
  });
  parser.on("file", (name, stream) => {
    files.push(
      (async () => {
        const parts: Buffer[] = [];
        for await (const chunk of stream as AsyncIterable<Buffer>) parts.push(chunk);
        form[name] = Buffer.concat(parts);
      })(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", () => reject(new ApiError("INVALID_FORM_BODY", { message: "Invalid multipart form body" })));
    Readable.from([body]).pipe(parser);
  });
  await Promise.all(files);
  return form;
}
