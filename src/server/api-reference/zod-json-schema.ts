// A route's zod schema as the JSON Schema an OpenAPI 3.1 document embeds: what a caller
// sends (zod's "input" side, before transforms), with kinds JSON Schema cannot state given
// a sane shape instead of stopping the document, and local definitions moved where the
// document's references can reach them.
import { z } from "zod";
import type { JsonSchema } from "./platform-description.ts";

/** Where every schema of the document lives, so definitions hoisted out of a route's schema resolve. */
const COMPONENT_PREFIX = "#/components/schemas/";

type Converted = { schema: JsonSchema; definitions: Record<string, JsonSchema> };

/**
 * `schema` as JSON Schema 2020-12. Its own definitions (recursive parts) are returned apart,
 * named `${name}_${definition}`, and its references point at them in the components.
 */
export function toRequestJsonSchema(schema: z.ZodType, name: string): Converted {
  const converted = z.toJSONSchema(schema, {
    io: "input",
    target: "draft-2020-12",
    unrepresentable: "any",
    cycles: "ref",
    reused: "inline",
    override: ({ zodSchema, jsonSchema }) => describeUnrepresentable(zodSchema as unknown as z.ZodType, jsonSchema as JsonSchema),
  }) as JsonSchema;
  const { $defs, $schema: _dialect, ...root } = converted;
  const definitions: Record<string, JsonSchema> = {};
  for (const [key, definition] of Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
    definitions[`${name}_${key}`] = relocate(definition, name) as JsonSchema;
  }
  return { schema: relocate(root, name) as JsonSchema, definitions };
}

const SAMPLE_PART = Object.assign(Buffer.alloc(0), { filename: "file", contentType: "application/octet-stream" });

/** Kinds JSON cannot carry, as what a client sends for them on the wire. */
function describeUnrepresentable(schema: z.ZodType, json: JsonSchema) {
  const def = (schema as unknown as { _zod: { def: { type: string } } })._zod.def;
  switch (def.type) {
    case "custom":
      // Multipart bodies carry files as parts (checked on the server as Buffers with their part's name and type).
      if (schema.safeParse(SAMPLE_PART).success) Object.assign(json, { type: "string", contentMediaType: "application/octet-stream" });
      else json.description ??= "Checked by the server beyond what JSON Schema states.";
      break;
    case "bigint":
      Object.assign(json, { type: "integer" });
      break;
    case "date":
      Object.assign(json, { type: "string", format: "date-time" });
      break;
  }
}

function relocate(value: unknown, name: string): unknown {
  if (Array.isArray(value)) return value.map((item) => relocate(item, name));
  if (value === null || typeof value !== "object") return value;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$ref" && typeof child === "string" && child.startsWith("#/$defs/")) out.$ref = `${COMPONENT_PREFIX}${name}_${child.slice("#/$defs/".length)}`;
    else if (key === "$ref" && child === "#") out.$ref = `${COMPONENT_PREFIX}${name}`;
    else out[key] = relocate(child, name);
  }
  return out;
}
