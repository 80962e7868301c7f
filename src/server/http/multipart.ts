import busboy from "busboy";
import { ApiError, invalidField } from "~/server/errors.ts";
import type { FormFile } from "./form-file.ts";
import { MAX_FILE_BYTES, MAX_FORM_FILES } from "./http-types.ts";

/** A multipart/form-data body: text fields as strings, files as their bytes. */
export type FormBody = Record<string, string | FormFile>;

// Parsed forms, so a handler taking JSON or a form can tell an empty form from an empty object.
const forms = new WeakSet<object>();

export function isFormBody(value: unknown): value is FormBody {
  return typeof value === "object" && value !== null && forms.has(value);
}

const invalidForm = () => new ApiError("INVALID_FORM_BODY", { message: "Invalid multipart form body" });

/**
 * Parses a multipart/form-data body as it arrives: 50035 when it is not one, 40005 Request
 * entity too large as soon as a file passes MAX_FILE_BYTES, without reading the rest of the
 * body (the source's iterator is returned; adapters discard what is left of it). A failure of
 * the source itself (its size limit) ends the parse with that error.
 */
export async function parseMultipart(body: AsyncIterable<Uint8Array>, contentType: string): Promise<FormBody> {
  let parser: busboy.Busboy;
  try {
    // busboy stops a file once it reaches fileSize: one byte more lets a file of exactly MAX_FILE_BYTES through.
    parser = busboy({ headers: { "content-type": contentType }, limits: { fileSize: MAX_FILE_BYTES + 1, files: MAX_FORM_FILES, fields: 50 } });
  } catch {
    throw invalidForm();
  }
  const form: FormBody = {};
  forms.add(form);
  // Written from busboy's callbacks, read between chunks.
  const state: { failure: ApiError | null } = { failure: null };
  const fail = (error: ApiError) => {
    state.failure ??= error;
  };
  const failure = (): ApiError | null => state.failure;
  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fail(new ApiError("REQUEST_TOO_LARGE"));
    form[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    const parts: Buffer[] = [];
    // Destroying the parser after a failure ends the file stream with an error: already answered.
    stream.on("error", () => fail(invalidForm()));
    stream.on("data", (chunk: Buffer) => parts.push(chunk));
    stream.on("limit", () => {
      parts.length = 0;
      fail(new ApiError("REQUEST_TOO_LARGE"));
    });
    stream.on("end", () => {
      if (failure()) return;
      form[name] = Object.assign(Buffer.concat(parts), { filename: info.filename ?? name, contentType: info.mimeType || "application/octet-stream" });
    });
  });
  parser.on("filesLimit", () => fail(invalidField(["files"], "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_FORM_FILES} or fewer in length.`)));
  parser.on("error", () => fail(invalidForm()));
  const closed = new Promise<void>((resolve) => parser.on("close", resolve));

  const iterator = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      if (!parser.write(next.value)) await drained(parser);
      if (failure()) break;
    }
  } catch (error) {
    parser.destroy();
    throw error;
  } finally {
    if (failure()) await iterator.return?.();
  }
  const early = failure();
  if (early) {
    parser.destroy();
    throw early;
  }
  parser.end();
  await Promise.race([closed, new Promise((resolve) => parser.once("error", resolve))]);
  const late = failure();
  if (late) throw late;
  return form;
}

/** Waits until the parser takes more input, or will never take any (it failed or closed). */
function drained(parser: busboy.Busboy): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const event of ["drain", "error", "close"]) parser.off(event, done);
      resolve();
    };
    for (const event of ["drain", "error", "close"]) parser.once(event, done);
  });
}
