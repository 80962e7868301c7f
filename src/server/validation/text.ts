import { invalidField } from "~/server/errors.ts";

/**
 * Refuses a request value holding a NUL character anywhere (a string, or a key): no stored
 * text may contain one, and PostgreSQL cannot store it at all. 50035 on the first such field.
 * Walks plain objects and arrays only (uploaded files are bytes), without recursion: callers
 * bound the depth (parseRequestJson), this only must not overflow.
 */
export function refuseNulCharacters(value: unknown): void {
  const pending: { value: unknown; path: PropertyKey[] }[] = [{ value, path: [] }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { value: current, path } = item;
    if (typeof current === "string") {
      if (current.includes("\u0000")) throw nulError(path);
    } else if (Array.isArray(current)) {
      current.forEach((entry, index) => pending.push({ value: entry, path: [...path, index] }));
    } else if (current !== null && typeof current === "object" && isPlain(current)) {
      for (const [key, entry] of Object.entries(current)) {
        if (key.includes("\u0000")) throw nulError(path);
        pending.push({ value: entry, path: [...path, key] });
      }
    }
  }
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

const nulError = (path: PropertyKey[]) => invalidField(path, "BASE_TYPE_BAD_CHARACTERS", "Must not contain null characters.");
