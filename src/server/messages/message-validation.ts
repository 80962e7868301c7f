import { ComponentType, MessageFlags } from "discord-api-types/v10";
import type { z } from "zod";
import { addFieldError, ApiError, fromZodError, type ErrorTree } from "~/server/errors.ts";
import { isFormFile } from "~/server/http/form-file.ts";
import { isFormBody, type FormBody } from "~/server/http/multipart.ts";
import { parseRequestJson } from "~/server/validation/json.ts";
import { COMPONENT_LIMITS, countComponents, type TComponent } from "./component.schema.ts";
import type { TAttachmentRequest, TMessageFields } from "./message.schema.ts";

/** One uploaded file of a multipart message request: `files[n]` keeps its n. */
export type UploadedFile = { index: number; filename: string; contentType: string; data: Buffer };

/** A message request as sent: the JSON (or payload_json) body parsed by the caller's schema, and the files. */
export type MessageRequest<T> = { body: T; files: UploadedFile[] };

const FILE_FIELD = /^files\[(\d+)\]$/;
/** Form fields the platform reads as they are when there is no payload_json. */
const TEXT_FIELDS = ["content", "username", "avatar_url", "thread_name"] as const;

/**
 * Reads a message request that came as JSON or as a multipart form (payload_json or plain
 * fields, and files[n]) and parses it with `schema`: 50035 with field errors, 50109 for a
 * payload_json that is not JSON. Bots' Create Message and webhooks' Execute share it.
 */
export function readMessageRequest<S extends z.ZodType>(schema: S, raw: unknown): MessageRequest<z.output<S>> {
  const { payload, files } = isFormBody(raw) ? splitForm(raw) : { payload: raw ?? {}, files: [] };
  const result = schema.safeParse(payload);
  if (!result.success) throw fromZodError(result.error, payload);
  return { body: result.data, files };
}

function splitForm(form: FormBody): { payload: unknown; files: UploadedFile[] } {
  const files: UploadedFile[] = [];
  let nextIndex = 0;
  const named = Object.entries(form).flatMap(([name, value]) => (isFormFile(value) ? [{ name, value, index: Number(FILE_FIELD.exec(name)?.[1] ?? -1) }] : []));
  for (const { index } of named) nextIndex = Math.max(nextIndex, index + 1);
  // Files under other names (`file`, `image`) follow the numbered ones, in the order sent.
  for (const { value, index } of named) {
    files.push({ index: index >= 0 ? index : nextIndex++, filename: value.filename, contentType: value.contentType, data: value });
  }
  files.sort((a, b) => a.index - b.index);

  const json = form.payload_json;
  if (typeof json === "string") return { payload: parseRequestJson(json), files };
  const payload: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) if (typeof form[field] === "string") payload[field] = form[field];
  if (typeof form.tts === "string") payload.tts = form.tts === "true" || form.tts === "1";
  if (typeof form.flags === "string" && /^\d+$/.test(form.flags)) payload.flags = Number(form.flags);
  return { payload, files };
}

/**
 * The rules across fields of a new message: at least one of content, embeds, components,
 * files, poll (50006); with IS_COMPONENTS_V2 nothing but components (50035); components of
 * the kinds the flags allow.
 */
export function checkNewMessage(body: Pick<TMessageFields, "content" | "embeds" | "components" | "poll" | "flags">, files: readonly unknown[]): void {
  const isV2 = ((body.flags ?? 0) & MessageFlags.IsComponentsV2) !== 0;
  if (isV2) checkV2Only({ content: body.content, embeds: body.embeds, poll: body.poll, files: files.length > 0 });
  checkComponents(body.components ?? [], isV2);
  const hasSomething = Boolean(body.content) || (body.embeds?.length ?? 0) > 0 || (body.components?.length ?? 0) > 0 || files.length > 0 || Boolean(body.poll);
  if (!hasSomething) throw new ApiError("EMPTY_MESSAGE");
}

/** IS_COMPONENTS_V2 messages carry components only: each other field present is a 50035 error. */
export function checkV2Only(fields: { content?: string | null; embeds?: readonly unknown[] | null; poll?: unknown; files?: boolean }): void {
  const tree: ErrorTree = {};
  const legacy = (name: string) =>
    addFieldError(tree, [name], {
      code: "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
      message: `The '${name}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2`,
    });
  if (fields.content) legacy("content");
  if (fields.embeds && fields.embeds.length > 0) legacy("embeds");
  if (fields.poll) legacy("poll");
  if (fields.files) legacy("files");
  if (Object.keys(tree).length > 0) throw new ApiError("INVALID_FORM_BODY", { errors: tree });
}

/** Without IS_COMPONENTS_V2 only up to five action rows; with it up to 40 components in all. */
export function checkComponents(components: readonly TComponent[], isV2: boolean): void {
  if (isV2) {
    if (countComponents(components) > COMPONENT_LIMITS.v2Total) {
      throw new ApiError("INVALID_FORM_BODY", {
        errors: addFieldError({}, ["components"], { code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${COMPONENT_LIMITS.v2Total} or fewer in length.` }),
      });
    }
    return;
  }
  const tree: ErrorTree = {};
  if (components.length > COMPONENT_LIMITS.legacyRows) {
    addFieldError(tree, ["components"], { code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${COMPONENT_LIMITS.legacyRows} or fewer in length.` });
  }
  components.forEach((component, i) => {
    if (component.type !== ComponentType.ActionRow) {
      addFieldError(tree, ["components", i], {
        code: "COMPONENT_TYPE_REQUIRES_COMPONENTS_V2",
        message: "This component type requires the IS_COMPONENTS_V2 message flag.",
      });
    }
  });
  if (Object.keys(tree).length > 0) throw new ApiError("INVALID_FORM_BODY", { errors: tree });
}

/** A file to store as an attachment, with what the request's `attachments` entry says of it. */
export type NewAttachment = { file: UploadedFile; filename: string; title: string | null; description: string | null; isSpoiler: boolean };

/** The platform's filenames: anything but letters, digits, dot, dash and underscore becomes an underscore. */
function sanitizeFilename(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 1024);
  return cleaned === "" || /^\.+$/.test(cleaned) ? "unknown" : cleaned;
}

/**
 * Pairs uploaded files with their `attachments` entries (id = the n of files[n]): filename,
 * title, description and spoiler come from the entry; the SPOILER_ prefix also marks a spoiler.
 * An entry naming no uploaded file is a 50035 error.
 */
export function newAttachments(files: readonly UploadedFile[], requests: readonly TAttachmentRequest[] | null | undefined): NewAttachment[] {
  const byIndex = new Map(files.map((file) => [String(file.index), file]));
  const tree: ErrorTree = {};
  (requests ?? []).forEach((request, i) => {
    if (!byIndex.has(request.id)) addFieldError(tree, ["attachments", i, "id"], { code: "ATTACHMENT_NOT_FOUND", message: "Attachment not found." });
  });
  if (Object.keys(tree).length > 0) throw new ApiError("INVALID_FORM_BODY", { errors: tree });
  return files.map((file) => {
    const request = requests?.find((r) => r.id === String(file.index));
    const filename = sanitizeFilename(request?.filename ?? file.filename);
    return {
      file,
      filename,
      title: request?.title ?? null,
      description: request?.description ?? null,
      isSpoiler: Boolean(request?.is_spoiler) || filename.startsWith("SPOILER_"),
    };
  });
}
