// The API reference page's reading of the OpenAPI document: every operation grouped by tag,
// with its auth in words and its query and body as trees of fields. Read from the document
// itself, so the page shows what /api/v10/openapi.json says.
import { BOT_TOKEN_SCHEME, OAUTH2_SCHEME, type OpenApiDocument, type OpenApiOperation, type OpenApiResponse } from "./openapi.ts";
import { SCHEMA_REF_PREFIX, type JsonSchema } from "./platform-description.ts";

export type SchemaField = {
  /** The property's name, or null for the body itself, an item or a variant. */
  name: string | null;
  /** The JSON type in words: "string", "array of object", "one of 2", "platform object GuildResponse". */
  type: string;
  required: boolean;
  nullable: boolean;
  /** Limits and formats in words ("1–100 characters", "pattern ^\d+$", "default 0"). */
  limits: string[];
  values?: string[];
  description?: string;
  children: SchemaField[];
};

type ReferenceAnswer = { status: string; description: string; contentType: string | null; schema: string | null };

export type ReferenceRoute = {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  auth: "none" | "bot" | "bearer" | "any";
  scopes: string[];
  open: string | null;
  query: SchemaField[];
  body: { contentTypes: string[]; required: boolean; schema: SchemaField } | null;
  answers: ReferenceAnswer[];
};

export type ReferenceSection = { tag: string; routes: ReferenceRoute[] };

const MAX_DEPTH = 6;

export function referenceView(document: OpenApiDocument): ReferenceSection[] {
  const schemas = document.components.schemas;
  const sections = new Map<string, ReferenceRoute[]>(document.tags.map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      sections.get(operation.tags[0])!.push(routeView(path, method.toUpperCase(), operation, schemas));
    }
  }
  return [...sections].map(([tag, routes]) => ({ tag, routes }));
}

function routeView(path: string, method: string, operation: OpenApiOperation, schemas: Record<string, JsonSchema>): ReferenceRoute {
  const bot = operation.security.some((requirement) => BOT_TOKEN_SCHEME in requirement);
  const bearer = operation.security.find((requirement) => OAUTH2_SCHEME in requirement);
  const body = operation.requestBody;
  return {
    operationId: operation.operationId,
    method,
    path,
    summary: operation.summary,
    auth: bot && bearer ? "any" : bot ? "bot" : bearer ? "bearer" : "none",
    scopes: bearer?.[OAUTH2_SCHEME] ?? [],
    open: operation["x-guildhall-open"]?.why ?? null,
    query: operation.parameters
      .filter((parameter) => parameter.in === "query")
      .map((parameter) =>
        field(
          parameter.name,
          parameter.description ? { ...parameter.schema, description: parameter.description } : parameter.schema,
          parameter.required,
          schemas,
          0,
        ),
      ),
    body: body
      ? {
          contentTypes: Object.keys(body.content),
          required: body.required,
          schema: field(null, Object.values(body.content)[0]?.schema ?? {}, body.required, schemas, 0),
        }
      : null,
    answers: Object.entries(operation.responses).map(([status, response]) => answerView(status, response)),
  };
}

function answerView(status: string, response: OpenApiResponse): ReferenceAnswer {
  if ("$ref" in response) return { status, description: status === "429" ? "Rate limited" : "Error envelope", contentType: null, schema: null };
  const media = Object.entries(response.content ?? {})[0];
  const schema = media?.[1].schema;
  return { status, description: response.description, contentType: media?.[0] ?? null, schema: schema ? schemaName(schema) : null };
}

/** A response schema in a few words: its component's name, an array of one, or its type. */
function schemaName(schema: JsonSchema): string {
  const target = refTarget(schema);
  if (target) return target;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type): type is string => typeof type === "string");
  const orNull = types.includes("null") ? " or null" : "";
  if (schema.items) return `array of ${schemaName(schema.items as JsonSchema)}${orNull}`;
  const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (variants) return variants.map(schemaName).join(" | ");
  return types.length > 0 ? types.join(" or ") : "JSON";
}

function refTarget(schema: JsonSchema): string | null {
  return typeof schema.$ref === "string" && schema.$ref.startsWith(SCHEMA_REF_PREFIX) ? schema.$ref.slice(SCHEMA_REF_PREFIX.length) : null;
}

function field(name: string | null, schema: JsonSchema, required: boolean, schemas: Record<string, JsonSchema>, depth: number): SchemaField {
  const target = refTarget(schema);
  if (target) {
    const resolved = schemas[target];
    // Followed a few levels (recursive parts of a route's schema), then named.
    if (resolved && depth < MAX_DEPTH) return field(name, { ...resolved, ...withoutRef(schema) }, required, schemas, depth + 1);
    return { name, type: `object ${target}`, required, nullable: false, limits: [], children: [] };
  }
  const types = (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []) as string[];
  const variants = ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined) ?? [];
  const nullVariant = variants.some((variant) => variant.type === "null");
  const realVariants = variants.filter((variant) => variant.type !== "null");
  const nullable = types.includes("null") || nullVariant || (Array.isArray(schema.enum) && schema.enum.includes(null));
  const out: SchemaField = { name, type: "any JSON", required, nullable, limits: limitsOf(schema), children: [] };
  if (typeof schema.description === "string") out.description = schema.description;
  const values = (schema.enum as unknown[] | undefined) ?? ("const" in schema ? [schema.const] : undefined);
  if (values) out.values = values.filter((value) => value !== null).map((value) => JSON.stringify(value));

  if (realVariants.length === 1 && types.length === 0) {
    const only = field(name, realVariants[0]!, required, schemas, depth + 1);
    return { ...only, nullable: only.nullable || nullable, limits: [...out.limits, ...only.limits], description: out.description ?? only.description };
  }
  if (realVariants.length > 1) {
    out.type = `one of ${realVariants.length}`;
    out.children = realVariants.map((variant, index) => ({ ...field(`option ${index + 1}`, variant, false, schemas, depth + 1), required: false }));
    return out;
  }
  const type = types.filter((each) => each !== "null").join(" or ") || (values ? typeof values[0] : "");
  if (type) out.type = type;
  if (depth >= MAX_DEPTH) return out;
  if (type === "object" || schema.properties) {
    out.type = "object";
    const requiredNames = new Set((schema.required as string[] | undefined) ?? []);
    const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
    out.children = Object.entries(properties).map(([key, property]) => field(key, property, requiredNames.has(key), schemas, depth + 1));
    const additional = schema.additionalProperties as JsonSchema | boolean | undefined;
    if (typeof additional === "object" && Object.keys(properties).length === 0) out.children = [field("any key", additional, false, schemas, depth + 1)];
  } else if (type === "array") {
    const items = (schema.items as JsonSchema | undefined) ?? {};
    const item = field(null, items, true, schemas, depth + 1);
    out.type = `array of ${item.type}`;
    out.children = item.children.length > 0 ? item.children : [];
    out.limits.push(...item.limits.map((limit) => `each: ${limit}`));
    if (item.values) out.values = item.values;
  }
  return out;
}

function withoutRef(schema: JsonSchema): JsonSchema {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}

function limitsOf(schema: JsonSchema): string[] {
  const limits: string[] = [];
  const range = (min: unknown, max: unknown, unit: string) => {
    if (typeof min === "number" && typeof max === "number") limits.push(min === max ? `exactly ${min} ${unit}` : `${min}–${max} ${unit}`);
    else if (typeof min === "number") limits.push(`at least ${min} ${unit}`);
    else if (typeof max === "number") limits.push(`at most ${max} ${unit}`);
  };
  range(schema.minLength, schema.maxLength, "characters");
  range(schema.minItems, schema.maxItems, "items");
  range(schema.minProperties, schema.maxProperties, "keys");
  // zod bounds every integer by the safe range; only a route's own bounds are worth saying.
  const bound = (inclusive: unknown, exclusive: unknown, orEqual: string, strict: string) =>
    typeof inclusive === "number" && Math.abs(inclusive) < Number.MAX_SAFE_INTEGER
      ? `${orEqual} ${inclusive}`
      : typeof exclusive === "number"
        ? `${strict} ${exclusive}`
        : null;
  for (const limit of [bound(schema.minimum, schema.exclusiveMinimum, "≥", ">"), bound(schema.maximum, schema.exclusiveMaximum, "≤", "<")])
    if (limit) limits.push(limit);
  // zod writes a date-time's pattern beside its format; the format says it.
  if (typeof schema.pattern === "string" && typeof schema.format !== "string") limits.push(`pattern ${schema.pattern}`);
  if (typeof schema.format === "string") limits.push(`format ${schema.format}`);
  if (typeof schema.contentMediaType === "string") limits.push(`file (${schema.contentMediaType})`);
  if ("default" in schema) limits.push(`default ${JSON.stringify(schema.default)}`);
  return limits;
}
