import { ApiError } from "~/server/errors.ts";
import { refuseNulCharacters } from "./text.ts";

/**
 * How deep a request's JSON may nest. The deepest documented bodies stay near 10 levels (a
 * select menu's option emoji in an action row in a container of a components v2 message,
 * onboarding prompt options, embed fields); anything far past that is no request, and
 * deeper values overflow the stack of whatever walks them recursively.
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether `text` opens more than `max` objects and arrays inside one another (brackets in strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/**
 * JSON text sent by a client as a value: 50109 when it is not JSON or nests past
 * MAX_JSON_DEPTH, 50035 when a string in it holds a NUL character.
 */
export function parseRequestJson(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new ApiError("INVALID_JSON");
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new ApiError("INVALID_JSON");
  }
  refuseNulCharacters(value);
  return value;
}
