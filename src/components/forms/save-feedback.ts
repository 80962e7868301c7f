import type { FormErrors } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useRef } from "react";
import type { z } from "zod";
import { fromZodError } from "~/server/errors.ts";
import { applyFieldErrors, errorsOfTree, errorText, fieldErrorsOf, type ApiClientError } from "./server-errors.ts";

/**
 * A form's validation by the schema the service parses its body with, in the same words as
 * the service's own field errors: `validate: (values) => validateBody(toBody(values))`.
 */
export function bodyValidator(schema: z.ZodType): (body: unknown) => FormErrors {
  return (body) => {
    const parsed = schema.safeParse(body);
    return parsed.success ? {} : errorsOfTree(fromZodError(parsed.error, body).errors ?? {}, null, body);
  };
}

/** The form a save reports on: Mantine's `useForm` (null for a form that keeps its own state and shows `fieldErrorsOf`). */
type FeedbackForm = { setFieldError(path: string, message: string): void; getValues(): unknown };

/**
 * Scrolls to the first field in error inside `container` and focuses it. Fields in error
 * carry `aria-invalid` (Mantine's inputs) or `data-invalid` (lists, drop zones).
 */
function revealFirstInvalid(container: HTMLElement | null): void {
  // After React has rendered the errors just set.
  requestAnimationFrame(() => {
    const field = container?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"]');
    if (!field) return;
    field.scrollIntoView({ block: "center" });
    field.focus({ preventScroll: true });
  });
}

function notifyNotSaved(title: string, message: string): void {
  notifications.show({ color: "red", title, message, autoClose: 8000 });
}

/**
 * What every dashboard form does when a save fails, where the person is looking: a
 * notification that says what to fix, the first field in error scrolled to and focused, and
 * each field's own message beside it. Give `ref` to the `<form>`, `onInvalid` as
 * `form.onSubmit`'s second argument, `onServerError` as the mutation's `onError`.
 * `fields` are the form paths a server error may land on (the rest goes in the notification).
 */
export function useSaveFeedback(form: FeedbackForm | null, title: string, fields: () => readonly string[] = () => []) {
  const ref = useRef<HTMLFormElement>(null);
  return {
    ref,
    onInvalid: (errors: FormErrors) => {
      const messages = Object.values(errors).filter((message): message is string => typeof message === "string");
      const more = messages.length > 1 ? ` ${messages.length - 1} more ${messages.length === 2 ? "field needs" : "fields need"} attention too.` : "";
      notifyNotSaved(title, `${messages[0] ?? "Some fields need your attention."}${more}`);
      revealFirstInvalid(ref.current);
    },
    onServerError: (error: ApiClientError) => {
      const unplaced = form ? applyFieldErrors(form, error, fields()) : null;
      const first = Object.values(fieldErrorsOf(error, "body", form?.getValues()))[0];
      notifyNotSaved(title, unplaced ?? first ?? errorText(error));
      revealFirstInvalid(ref.current);
    },
  };
}
