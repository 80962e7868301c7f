import { notifications } from "@mantine/notifications";
import type { TRPCClientErrorLike } from "@trpc/client";
import type { ErrorTree, FieldError } from "~/server/errors.ts";
import type { AppRouter } from "~/server/trpc/root.ts";
import { fieldSentence } from "./field-words.ts";

export type ApiClientError = TRPCClientErrorLike<AppRouter>;

/**
 * The platform's field errors as `path → sentence` (field-words.ts), with paths relative to
 * `root`. tRPC input errors sit under the input's own keys (`body.name`), service errors at
 * the body's (`name`); both end up as `name`. `values` (the body as the form holds it) tells
 * a missing value from a wrong one.
 */
export function fieldErrorsOf(error: ApiClientError | null | undefined, root = "body", values?: unknown): Record<string, string> {
  const tree = error?.data?.fieldErrors;
  return tree ? errorsOfTree(tree, root, values) : {};
}

/** `fieldErrorsOf` for a tree the form has at hand (its own validation, in the service's words). */
export function errorsOfTree(tree: ErrorTree, root: string | null, values: unknown): Record<string, string> {
  // A Map, as field names come from the client and may be `constructor` or `__proto__`.
  const found = new Map<string, string>();
  const walk = (node: ErrorTree, path: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      if (key === "_errors") {
        const first = (value as FieldError[] | undefined)?.[0];
        const relative = root !== null && path[0] === root ? path.slice(1) : path;
        const name = relative.join(".");
        if (first && !found.has(name)) found.set(name, fieldSentence(relative, first, valueAt(values, relative)));
      } else if (value && typeof value === "object") {
        walk(value as ErrorTree, [...path, key]);
      }
    }
  };
  walk(tree, []);
  return Object.fromEntries(found);
}

function valueAt(values: unknown, path: readonly string[]): unknown {
  let value = values;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The first error at `field` or inside it (`role_ids` owns `role_ids.2`), for a form that keeps its own state. */
export function fieldError(errors: Record<string, string>, field: string): string | undefined {
  return Object.entries(errors).find(([path]) => path === field || path.startsWith(`${field}.`))?.[1];
}

type ErrorSink = { setFieldError(path: string, message: string): void; getValues(): unknown };

/**
 * Shows each field error on its input; what no input owns (a whole-form rule, a permission)
 * is returned for a notification or alert.
 */
export function applyFieldErrors(form: ErrorSink, error: ApiClientError, fields: readonly string[]): string | null {
  const errors = fieldErrorsOf(error, "body", form.getValues());
  let unplaced: string | null = null;
  for (const [path, message] of Object.entries(errors)) {
    const field = fields.find((f) => path === f || path.startsWith(`${f}.`));
    if (field) form.setFieldError(field, message);
    else unplaced ??= message;
  }
  if (Object.keys(errors).length === 0) return errorText(error);
  return unplaced;
}

/** A sentence for an error that isn't about one field. */
export function errorText(error: ApiClientError | Error): string {
  const data = "data" in error ? (error.data as { code?: string; domainCode?: number | null } | undefined) : undefined;
  if (data?.code === "UNAUTHORIZED") return "Your session has ended. Sign in again.";
  if (data?.code === "FORBIDDEN") return `You don't have permission to do that (${error.message}).`;
  // The server's text for these is generic, with an id its log has the cause under.
  if (data?.code === "INTERNAL_SERVER_ERROR") return `${error.message || "Something went wrong on the server"}. Try again.`;
  // "Invalid Form Body" says nothing: the first field's problem, in words, does.
  const field = "data" in error ? Object.values(fieldErrorsOf(error))[0] : undefined;
  if (field) return field;
  return error.message || "Something went wrong. Try again.";
}

export function notifySuccess(message: string, title?: string) {
  notifications.show({ color: "teal", title, message, autoClose: 3500 });
}

export function notifyFailure(title: string, error: ApiClientError | Error | string) {
  notifications.show({ color: "red", title, message: typeof error === "string" ? error : errorText(error), autoClose: 7000 });
}
