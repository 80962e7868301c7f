// fast-check arbitraries from the zod schemas of the route table: values a schema should
// take (built from its definition, so valid as far as its shape, lengths and bounds go;
// refinements are not solved), and broken ones (wrong types, sizes, nesting, key names,
// text and numbers at the edges) spliced into them as raw JSON.
import fc from "fast-check";
import type { z } from "zod";
import { ZGlobalCommandBodySchema, ZGuildCommandBodySchema } from "~/server/commands/command.schema.ts";
import { ZImageDataSchema } from "~/server/images/image.schema.ts";
import { ZPermissionStringSchema, ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { PNG } from "./member-kit.ts";

type Def = { type: string; [key: string]: unknown };
type Check = { _zod: { def: { check: string; [key: string]: unknown } } };

/** Ids of things that exist, so valid values reach the services instead of stopping at 404. */
export type Hints = { ids: readonly string[] };

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def) => ((def.checks as Check[] | undefined) ?? []).map((check) => check._zod.def);
const isOptional = (schema: z.ZodType) => (schema as unknown as { _zod: { optin?: string } })._zod.optin === "optional";

const DAY_MS = 24 * 60 * 60 * 1000;
const EDGE_SNOWFLAKES = ["0", "1", "99999999999999999999", "18446744073709551616", "9223372036854775808", "00000000000000000001"];

/** Values `schema` should take (lengths and sizes kept small). Schema kinds it does not know give any JSON. */
export function validArbitrary(schema: z.ZodType, hints: Hints, depth = 0): fc.Arbitrary<unknown> {
  if (schema === ZSnowflakeSchema) return snowflake(hints);
  // Refinements cannot be solved from a definition: the shared ones are known here.
  if (schema === defOf(ZImageDataSchema).innerType) return fc.constant(PNG);
  if (schema === ZPermissionStringSchema) return fc.bigInt(0n, 2n ** 50n).map(String);
  if (schema === ZGlobalCommandBodySchema || schema === ZGuildCommandBodySchema) return command();
  const def = defOf(schema);
  const inner = (key: string) => validArbitrary(def[key] as z.ZodType, hints, depth + 1);
  switch (def.type) {
    case "string":
      return string(def);
    case "number":
      return number(def);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "enum":
      return fc.constantFrom(...Object.values(def.entries as Record<string, string | number>));
    case "literal":
      return fc.constantFrom(...(def.values as unknown[]));
    case "optional":
    case "default":
    case "prefault":
      return fc.option(inner("innerType"), { nil: undefined, freq: 3 });
    case "nullable":
      return fc.option(inner("innerType"), { nil: null, freq: 6 });
    case "readonly":
    case "catch":
    case "nonoptional":
      return inner("innerType");
    case "pipe": {
      // z.preprocess is a pipe out of a transform: what it takes is what the pipe's end takes.
      const from = defOf(def.in as z.ZodType);
      if (from.type === "transform") return inner("out");
      // Text read as a number (a query's integer): the number's bounds, written out.
      if (from.type === "pipe" && defOf(from.out as z.ZodType).type === "transform" && defOf(def.out as z.ZodType).type === "number")
        return inner("out").map(String);
      return inner("in");
    }
    case "lazy":
      return depth > 6 ? fc.constant(undefined) : validArbitrary((def.getter as () => z.ZodType)(), hints, depth + 1);
    case "object": {
      const shape = def.shape as Record<string, z.ZodType>;
      const keys = Object.keys(shape);
      const arbitraries = Object.fromEntries(keys.map((key) => [key, validArbitrary(shape[key]!, hints, depth + 1)]));
      return fc.record(arbitraries, { requiredKeys: keys.filter((key) => !isOptional(shape[key]!)) }).map(dropUndefined);
    }
    case "array": {
      const { min, max } = lengths(def, 0, 4);
      return fc.array(inner("element"), { minLength: min, maxLength: max });
    }
    case "tuple":
      return fc.tuple(...(def.items as z.ZodType[]).map((item) => validArbitrary(item, hints, depth + 1)));
    case "record":
      return fc.dictionary(inner("keyType") as fc.Arbitrary<string>, inner("valueType"), { maxKeys: 3 });
    case "union":
      return fc.oneof(...(def.options as z.ZodType[]).map((option) => validArbitrary(option, hints, depth + 1)));
    case "intersection":
      return inner("left");
    default:
      // transform, custom, unknown, any: nothing to build from, so any JSON (often broken).
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** An application command: a chat command with a lowercase name and string options, or a context menu command. */
function command(): fc.Arbitrary<unknown> {
  const name = fc.stringMatching(/^[a-z0-9_-]{1,32}$/);
  const option = fc.record({ type: fc.constant(3), name, description: fc.string({ minLength: 1, maxLength: 100 }) });
  return fc.oneof(
    fc.record({ name, description: fc.string({ minLength: 1, maxLength: 100 }), options: fc.uniqueArray(option, { maxLength: 3, selector: (o) => o.name }) }),
    fc.record({ type: fc.constantFrom(2, 3), name: fc.string({ minLength: 1, maxLength: 32 }) }),
  );
}

function snowflake(hints: Hints): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...hints.ids) },
    { weight: 1, arbitrary: fc.constantFrom(...EDGE_SNOWFLAKES) },
    { weight: 1, arbitrary: fc.stringMatching(/^\d{1,20}$/) },
  );
}

function lengths(def: Def, min: number, spread: number): { min: number; max: number } {
  let lo = min;
  let hi = Number.POSITIVE_INFINITY;
  for (const check of checksOf(def)) {
    if (check.check === "min_length") lo = Math.max(lo, check.minimum as number);
    if (check.check === "max_length") hi = Math.min(hi, check.maximum as number);
    if (check.check === "length_equals") lo = hi = check.length as number;
  }
  return { min: lo, max: Math.min(hi, lo + spread) };
}

function string(def: Def): fc.Arbitrary<string> {
  if (def.format === "datetime") return fc.integer({ min: -2 * DAY_MS, max: 2 * DAY_MS }).map((offset) => new Date(Date.now() + offset).toISOString());
  if (def.format === "url") return fc.webUrl();
  if (def.format === "email") return fc.emailAddress();
  const pattern = (def.pattern as RegExp | undefined) ?? (checksOf(def).find((check) => check.format === "regex")?.pattern as RegExp | undefined);
  const { min, max } = lengths(def, 0, 24);
  if (pattern) return fc.stringMatching(pattern).filter((value) => value.length >= min && value.length <= Math.max(max, min + 64));
  return fc.oneof(fc.string({ minLength: min, maxLength: max }), fc.string({ minLength: min, maxLength: max, unit: "grapheme" }));
}

function number(def: Def): fc.Arbitrary<number> {
  let min = -(2 ** 53) + 1;
  let max = 2 ** 53 - 1;
  let int = false;
  for (const check of checksOf(def)) {
    if (check.check === "number_format" && ["safeint", "int32", "uint32"].includes(check.format as string)) int = true;
    if (check.check === "greater_than") min = Math.max(min, (check.value as number) + (check.inclusive ? 0 : int ? 1 : Number.EPSILON));
    if (check.check === "less_than") max = Math.min(max, (check.value as number) - (check.inclusive ? 0 : int ? 1 : Number.EPSILON));
  }
  if (int) return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function dropUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, each]) => each !== undefined));
}

/** Text at the edges: lone surrogates, direction and zero-width marks, NUL, numbers and words as strings. */
export const NASTY_STRINGS = [
  "",
  " ",
  "\uD800",
  "a\uDC00b",
  "\u202Eevil\u202C",
  "\u200B\u200D\uFEFF",
  "\u0000",
  "e\u0301\u0301\u0301",
  "🏳️‍🌈👨‍👩‍👧‍👦",
  "ｆｕｌｌ",
  "NaN",
  "Infinity",
  "-0",
  "1e308",
  "9007199254740993",
  "0x10",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "%00%2F..%2F",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "\\",
  "\r\n\t",
] as const;

const HUGE = 100_000;
const MANY = 10_000;
const DEEP = 10_000;

/** Broken values as raw JSON text (some cannot be written by JSON.stringify: -0, a key named __proto__, 10,000 levels). */
export const NASTY_JSON: readonly string[] = [
  "null",
  "true",
  "0",
  '"x"',
  "[]",
  "{}",
  '"1"',
  "-0",
  "1e308",
  "-1e308",
  "5e-324",
  String(2 ** 53),
  String(-(2 ** 53)),
  "9007199254740993",
  "2147483648",
  "-1",
  "0.5",
  "1e21",
  JSON.stringify("a".repeat(HUGE)),
  JSON.stringify("😀".repeat(HUGE / 4)),
  `[${Array.from({ length: MANY }, () => "0").join(",")}]`,
  `[${Array.from({ length: MANY }, () => '{"id":"1"}').join(",")}]`,
  "[".repeat(DEEP) + "]".repeat(DEEP),
  '{"a":'.repeat(DEEP) + "1" + "}".repeat(DEEP),
  '{"__proto__":{"admin":true,"toString":1}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"toString":"x","valueOf":1,"hasOwnProperty":null}',
  ...NASTY_STRINGS.map((text) => JSON.stringify(text)),
];

export const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "__defineGetter__", "valueOf"] as const;

/** Where in a value a broken piece goes: the whole, a value at a key or index, or a new key. */
type Mutation = { path: (string | number)[]; json: string; newKey?: string };

/** A valid value with one broken piece put in: the JSON text to send. */
export function brokenJson(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return valid.chain((value) => {
    const paths = pathsOf(value);
    const objectPaths = paths.filter((path) => isObject(at(value, path)));
    const mutations: fc.Arbitrary<Mutation>[] = [
      fc.record({ path: fc.constantFrom(...paths), json: fc.constantFrom(...NASTY_JSON) }),
      fc.constant({ path: [], json: "" }),
    ];
    if (objectPaths.length > 0) {
      const key = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.constantFrom(...NASTY_STRINGS));
      mutations.push(fc.record({ path: fc.constantFrom(...objectPaths), json: fc.constantFrom(...NASTY_JSON), newKey: key }));
    }
    return fc.oneof(...mutations).map((mutation) => splice(value, mutation));
  });
}

const MARK = "\u00a7\u00a7MARK\u00a7\u00a7";

function splice(value: unknown, mutation: Mutation): string {
  if (mutation.path.length === 0 && mutation.newKey === undefined) return mutation.json;
  const copy: unknown = structuredClone(value);
  const target = mutation.newKey === undefined ? parentOf(copy, mutation.path) : { holder: at(copy, mutation.path) as Record<string, unknown>, key: MARK };
  if (!target) return mutation.json;
  (target.holder as Record<string | number, unknown>)[target.key] = MARK;
  let text = JSON.stringify(copy);
  if (mutation.newKey !== undefined) text = text.replace(`"${MARK}":`, `${JSON.stringify(mutation.newKey)}:`);
  return text.replace(`"${MARK}"`, () => mutation.json);
}

function parentOf(value: unknown, path: (string | number)[]): { holder: object; key: string | number } | null {
  if (path.length === 0) return null;
  const holder = at(value, path.slice(0, -1));
  return holder !== null && typeof holder === "object" ? { holder, key: path.at(-1)! } : null;
}

function at(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Every place in a value: itself, and each key and index under it. */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const here = [path];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => pathsOf(item, [...path, index]))];
  if (isObject(value)) return [...here, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...path, key]))];
  return here;
}
