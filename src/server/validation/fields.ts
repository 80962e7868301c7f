import { z } from "zod";
import { isPermissionString } from "~/server/permissions/permissions.ts";

export { ZSnowflakeSchema } from "~/server/snowflake/snowflake.ts";

/** A string whose length (after trimming, when `trim`) is within [min, max]: BASE_TYPE_BAD_LENGTH. */
export function lengthBetween(min: number, max: number, options: { trim?: boolean } = {}) {
  const base = options.trim ? z.string().trim() : z.string();
  const checked = base.check((ctx) => {
    const length = [...ctx.value].length;
    if (length < min || length > max) {
      ctx.issues.push({ code: "custom", input: ctx.value, message: `Must be between ${min} and ${max} in length.`, params: { code: "BASE_TYPE_BAD_LENGTH" } });
    }
  });
  // The check in JSON Schema's words for the API reference: its lengths count code points too,
  // but before trimming, so a trimmed field's bounds are said in words instead.
  return checked.meta(options.trim ? { description: `${min} to ${max} characters once trimmed` } : { minLength: min, maxLength: max });
}

/** An integer within [min, max]; query strings are coerced. */
export function intBetween(min: number, max: number) {
  return z.number().int().min(min).max(max);
}

/** One of a fixed set of integers: BASE_TYPE_CHOICES. */
export function intChoice<const T extends readonly number[]>(choices: T) {
  return z
    .number()
    .int()
    .refine((v) => choices.includes(v), { message: `Value must be one of {${choices.join(", ")}}.`, params: { code: "BASE_TYPE_CHOICES" } });
}

/** A permission bitfield as a decimal string. */
export const ZPermissionStringSchema = z.string().refine(isPermissionString, { message: "Invalid permission value.", params: { code: "BASE_TYPE_INVALID" } });

/** A boolean in a query string: true/false/1/0 as the platform accepts. */
export const ZQueryBooleanSchema = z.enum(["true", "false", "True", "False", "1", "0"]).transform((v) => v === "true" || v === "True" || v === "1");

/**
 * A query parameter that may repeat (`channel_id=1&channel_id=2`): one value or several,
 * answered as a list of at most `max` (BASE_TYPE_MAX_LENGTH past it). Lists in JSON pass as they are.
 */
export function queryList<T extends z.ZodType>(item: T, max: number) {
  return z.preprocess((value) => (typeof value === "string" ? [value] : value), z.array(item).max(max));
}

/** An integer in a query string. */
export function queryInt(min: number, max: number) {
  return z
    .string()
    .regex(/^-?\d+$/, "Value is not int.")
    .transform(Number)
    .pipe(intBetween(min, max));
}

/** An ISO 8601 timestamp with its offset, as the platform's timestamp fields take. */
export const ZTimestampSchema = z.iso.datetime({ offset: true, message: "Could not parse timestamp." });
