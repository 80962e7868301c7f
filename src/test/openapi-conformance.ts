import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { RestExchange } from "./rest-client.ts";

/** Where the conformance subset of the platform's official description lives. */
export const OPENAPI_SUBSET_PATH = process.env.OPENAPI_SUBSET_PATH ?? fileURLToPath(new URL("./openapi-subset.json", import.meta.url));

const API_PREFIX = "/api/v10";
const SCHEMA_REF_PREFIX = "#/components/schemas/";
const MAX_REPORTED_ERRORS = 30;

type JsonSchema = Record<string, unknown>;

type ResponseDescription = { content_type?: string; schema?: JsonSchema; empty?: boolean; ref?: string };

type Operation = { operationId: string; method: string; path: string; responses: Record<string, ResponseDescription> };

type SeedOverride = {
  schema: string[];
  why: string;
  optional?: string[];
  nullable?: string[];
  non_nullable?: string[];
  require?: string[];
  add_enum?: string[];
};

type SpecDefectOverride = { schema: string[]; why: string; set_property?: Record<string, JsonSchema>; replace_schema?: JsonSchema };

type StatusOverride = { operationId: string; seed: number | null; spec: number; also?: number[]; note?: string };

type SchemaDrift = { name: string; note?: string; added?: string[]; removed?: string[]; now_required?: string[]; now_optional?: string[] };

export type SubsetDocument = {
  $id: string;
  meta: unknown;
  error_envelope: { "429": JsonSchema; "4XX": JsonSchema; rate_limit_headers: Record<string, { schema: JsonSchema; description?: string }> };
  seed_overrides: SeedOverride[];
  spec_defect_overrides: SpecDefectOverride[];
  status_overrides: StatusOverride[];
  drift: { npm_version: string; schemas: SchemaDrift[]; missing_paths: string[] };
  operations: Record<string, Operation>;
  components: { schemas: Record<string, JsonSchema> };
};

// Every key the document may carry. An unknown key is an adjustment this module would
// silently skip, so it stops the run instead.
const KNOWN_KEYS = {
  document: ["$id", "meta", "error_envelope", "seed_overrides", "spec_defect_overrides", "status_overrides", "drift", "operations", "components"],
  seed: ["schema", "why", "optional", "nullable", "non_nullable", "require", "add_enum"],
  defect: ["schema", "why", "set_property", "replace_schema"],
  status: ["operationId", "seed", "spec", "also", "note"],
  drift: ["npm_version", "schemas", "missing_paths"],
  schemaDrift: ["name", "note", "added", "removed", "now_required", "now_optional"],
  response: ["content_type", "schema", "empty", "ref"],
} as const;

function assertKnownKeys(value: object, known: readonly string[], where: string) {
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new Error(`openapi-subset: ${where} has keys this checker does not apply: ${unknown.join(", ")}`);
}

/** Checks REST exchanges against the description once its adjustments are applied. */
export type Conformance = {
  /** The operation a request path belongs to (literal segments win over parameters), if any. */
  matchOperation(method: string, path: string): string | undefined;
  /** A readable description of how the exchange breaks the description, or null when it conforms or is not described. */
  check(exchange: RestExchange): string | null;
  /** How `value` breaks the named component schema, or null when it conforms: for answers of operations the subset lacks. */
  checkSchema(name: string, value: unknown): string | null;
};

/** Builds the checker from the subset document, with the seed-wins adjustments applied. */
export function createConformance(document: SubsetDocument): Conformance {
  validateDocumentKeys(document);
  const adjusted = rewriteRefs(structuredClone(document), document.$id) as SubsetDocument;
  const schemas = adjusted.components.schemas;
  for (const override of adjusted.seed_overrides) for (const name of override.schema) applySeedOverride(schemaNamed(schemas, name), override, name);
  for (const override of adjusted.spec_defect_overrides) for (const name of override.schema) applySpecDefectOverride(schemas, override, name);
  for (const drift of adjusted.drift.schemas) applyDrift(schemaNamed(schemas, drift.name), drift);
  for (const override of adjusted.status_overrides) applyStatusOverride(adjusted.operations, override);

  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  addPlatformFormats(ajv);
  ajv.addSchema({ $id: document.$id, $defs: schemas });

  const validators = new Map<string, ValidateFunction>();
  function validatorFor(key: string, schema: JsonSchema) {
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      validators.set(key, validate);
    }
    return validate;
  }

  const templates = Object.values(adjusted.operations).map((operation) => ({
    operation,
    segments: operation.path
      .split("/")
      .slice(1)
      .map((segment) => (/^\{[a-z_]+\}$/.test(segment) ? null : segment)),
  }));

  function findOperation(method: string, path: string): Operation | undefined {
    const segments = path.split("/").slice(1).map(decodeSegment);
    const candidates = templates.filter(
      (t) => t.operation.method === method && t.segments.length === segments.length && t.segments.every((s, i) => s === null || s === segments[i]),
    );
    candidates.sort((a, b) => {
      for (let i = 0; i < a.segments.length; i++) {
        const aLiteral = a.segments[i] !== null;
        if (aLiteral !== (b.segments[i] !== null)) return aLiteral ? -1 : 1;
      }
      return 0;
    });
    return candidates[0]?.operation;
  }

  function checkBody(operation: Operation, exchange: RestExchange): string | null {
    const { status } = exchange;
    const contentType = exchange.headers.get("content-type");
    const described = isErrorStatus(status) ? undefined : operation.responses[String(status)];
    if (described) {
      if (described.empty) return exchange.text === "" ? null : `the description has no body for ${status}, got ${preview(exchange.text)}`;
      const expectedType = described.content_type ?? "application/json";
      if (!contentType?.startsWith(expectedType)) return `content-type ${contentType ?? "(none)"}, the description says ${expectedType}`;
      if (!described.schema || expectedType !== "application/json") return null;
      const validate = validatorFor(`${operation.operationId} ${status}`, described.schema);
      return validate(exchange.body) ? null : `body does not match the ${status} schema\n${formatErrors(validate.errors ?? [], exchange.body)}`;
    }
    const envelopeKey = status === 429 ? "429" : isErrorStatus(status) ? "4XX" : undefined;
    if (!envelopeKey || !operation.responses[envelopeKey]) {
      return `status ${status} is not one the operation answers with (described: ${Object.keys(operation.responses).join(", ")})`;
    }
    if (!contentType?.startsWith("application/json")) return `error body content-type ${contentType ?? "(none)"}, expected application/json`;
    const validate = validatorFor(`envelope ${envelopeKey}`, adjusted.error_envelope[envelopeKey]);
    return validate(exchange.body) ? null : `error body does not match the ${envelopeKey} envelope\n${formatErrors(validate.errors ?? [], exchange.body)}`;
  }

  function checkRateLimitHeaders(headers: Headers): string[] {
    const problems: string[] = [];
    for (const [name, { schema }] of Object.entries(adjusted.error_envelope.rate_limit_headers)) {
      const raw = headers.get(name);
      if (raw === null) continue;
      const value = schema.type === "string" ? raw : raw.trim() === "" ? Number.NaN : Number(raw);
      const validate = validatorFor(`header ${name}`, schema);
      if (!validate(value)) problems.push(`header ${name}: ${JSON.stringify(raw)} ${ajv.errorsText(validate.errors, { dataVar: "" })}`);
    }
    return problems;
  }

  function check(exchange: RestExchange): string | null {
    const url = new URL(exchange.url);
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) return null;
    const path = url.pathname.slice(API_PREFIX.length);
    const operation = findOperation(exchange.method, path);
    if (!operation) return null;
    const bodyProblem = checkBody(operation, exchange);
    const problems = [...(bodyProblem ? [bodyProblem] : []), ...checkRateLimitHeaders(exchange.headers)];
    if (problems.length === 0) return null;
    return `${exchange.method} ${path} → ${exchange.status} (operation ${operation.operationId}): ${problems.join("\n")}`;
  }

  function checkSchema(name: string, value: unknown): string | null {
    schemaNamed(schemas, name);
    const validate = validatorFor(`schema ${name}`, { $ref: `${document.$id}#/$defs/${name}` });
    return validate(value) ? null : `does not match ${name}\n${formatErrors(validate.errors ?? [], value)}`;
  }

  return { matchOperation: (method, path) => findOperation(method, path)?.operationId, check, checkSchema };
}

let shared: Conformance | undefined;

/** The checker for the subset file, built once per process. */
export function loadConformance(): Conformance {
  shared ??= createConformance(withMediaChannels(JSON.parse(readFileSync(OPENAPI_SUBSET_PATH, "utf8")) as SubsetDocument));
  return shared;
}

/** The spec (4.4) names media channels (type 16); the official channel type lists lack it. */
function withMediaChannels(document: SubsetDocument): SubsetDocument {
  const schemas = document.components.schemas;
  (schemas.ChannelTypes!.oneOf as JsonSchema[]).push({ title: "GUILD_MEDIA", const: 16 });
  const type = (schemas.GuildChannelResponse!.properties as Record<string, JsonSchema>).type!;
  type.enum = [...(type.enum as number[]), 16];
  return document;
}

function validateDocumentKeys(document: SubsetDocument) {
  assertKnownKeys(document, KNOWN_KEYS.document, "the document");
  document.seed_overrides.forEach((o, i) => assertKnownKeys(o, KNOWN_KEYS.seed, `seed_overrides[${i}]`));
  document.spec_defect_overrides.forEach((o, i) => assertKnownKeys(o, KNOWN_KEYS.defect, `spec_defect_overrides[${i}]`));
  document.status_overrides.forEach((o, i) => assertKnownKeys(o, KNOWN_KEYS.status, `status_overrides[${i}]`));
  assertKnownKeys(document.drift, KNOWN_KEYS.drift, "drift");
  document.drift.schemas.forEach((d, i) => assertKnownKeys(d, KNOWN_KEYS.schemaDrift, `drift.schemas[${i}]`));
  for (const operation of Object.values(document.operations)) {
    for (const [status, response] of Object.entries(operation.responses)) assertKnownKeys(response, KNOWN_KEYS.response, `${operation.operationId} ${status}`);
  }
}

/** Points every component reference at the one registered schema document. */
function rewriteRefs(value: unknown, documentId: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, documentId));
  if (value === null || typeof value !== "object") return value;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$ref" && typeof child === "string") {
      if (!child.startsWith(SCHEMA_REF_PREFIX)) throw new Error(`openapi-subset: unsupported $ref ${child}`);
      out[key] = `${documentId}#/$defs/${child.slice(SCHEMA_REF_PREFIX.length)}`;
    } else {
      out[key] = rewriteRefs(child, documentId);
    }
  }
  return out;
}

function schemaNamed(schemas: Record<string, JsonSchema>, name: string): JsonSchema {
  const schema = schemas[name];
  if (!schema) throw new Error(`openapi-subset: override names unknown schema ${name}`);
  return schema;
}

function propertiesOf(schema: JsonSchema, name: string): Record<string, JsonSchema> {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) throw new Error(`openapi-subset: schema ${name} has no properties to adjust`);
  return properties;
}

function propertyOf(schema: JsonSchema, name: string, field: string): JsonSchema {
  const property = propertiesOf(schema, name)[field];
  if (!property) throw new Error(`openapi-subset: schema ${name} has no property ${field}`);
  return property;
}

function dropRequired(schema: JsonSchema, fields: readonly string[]) {
  const required = schema.required as string[] | undefined;
  if (required) schema.required = required.filter((field) => !fields.includes(field));
}

function acceptsNull(property: JsonSchema): boolean {
  const types = Array.isArray(property.type) ? property.type : [property.type];
  if (types.includes("null")) return true;
  const branches = [...((property.oneOf as JsonSchema[] | undefined) ?? []), ...((property.anyOf as JsonSchema[] | undefined) ?? [])];
  return branches.some((branch) => branch.type === "null");
}

function nullable(property: JsonSchema): JsonSchema {
  if (acceptsNull(property)) return property;
  const hasValueList = "enum" in property || "const" in property;
  if (typeof property.type === "string" && !hasValueList) return { ...property, type: [property.type, "null"] };
  if (Array.isArray(property.type) && !hasValueList) return { ...property, type: [...(property.type as string[]), "null"] };
  return { anyOf: [{ type: "null" }, property] };
}

function nonNullable(property: JsonSchema, where: string): JsonSchema {
  if (!Array.isArray(property.type) || !property.type.includes("null")) throw new Error(`openapi-subset: ${where} is not a nullable type list`);
  const types = (property.type as string[]).filter((type) => type !== "null");
  return { ...property, type: types.length === 1 ? types[0] : types };
}

function applySeedOverride(schema: JsonSchema, override: SeedOverride, name: string) {
  for (const field of [...(override.optional ?? []), ...(override.require ?? []), ...(override.nullable ?? []), ...(override.non_nullable ?? [])]) {
    propertyOf(schema, name, field);
  }
  dropRequired(schema, override.optional ?? []);
  if (override.require) schema.required = [...new Set([...((schema.required as string[] | undefined) ?? []), ...override.require])];
  for (const field of override.nullable ?? []) propertiesOf(schema, name)[field] = nullable(propertyOf(schema, name, field));
  for (const field of override.non_nullable ?? []) propertiesOf(schema, name)[field] = nonNullable(propertyOf(schema, name, field), `${name}.${field}`);
  if (override.add_enum) {
    const branches = schema.oneOf as JsonSchema[] | undefined;
    if (!branches?.every((branch) => "const" in branch)) throw new Error(`openapi-subset: ${name} is not a list of constants`);
    for (const value of override.add_enum) if (!branches.some((branch) => branch.const === value)) branches.push({ title: value, const: value });
  }
}

function applySpecDefectOverride(schemas: Record<string, JsonSchema>, override: SpecDefectOverride, name: string) {
  schemaNamed(schemas, name);
  if (override.replace_schema) schemas[name] = override.replace_schema;
  const properties = propertiesOf(schemaNamed(schemas, name), name);
  for (const [field, replacement] of Object.entries(override.set_property ?? {})) properties[field] = replacement;
}

/**
 * Drift between the official build and the newer typings package: a response may follow
 * either, so fields one of them lacks or leaves optional are not required, and added
 * fields must be allowed (every drifted schema is open, which this asserts).
 */
function applyDrift(schema: JsonSchema, drift: SchemaDrift) {
  dropRequired(schema, [...(drift.removed ?? []), ...(drift.now_optional ?? [])]);
  if ((drift.added?.length ?? 0) > 0 && schema.additionalProperties === false) {
    throw new Error(`openapi-subset: ${drift.name} is closed but the typings add ${drift.added?.join(", ")}`);
  }
}

/** The seed's status wins; `also` lists further accepted statuses with the same body. */
function applyStatusOverride(operations: Record<string, Operation>, override: StatusOverride) {
  const operation = operations[override.operationId];
  const response = operation?.responses[String(override.spec)];
  if (!operation || !response) throw new Error(`openapi-subset: status override for unknown ${override.operationId} ${override.spec}`);
  if (override.seed !== null && override.seed !== override.spec) {
    delete operation.responses[String(override.spec)];
    // A body the description leaves out (204) cannot describe the seed's 200: the seed
    // says a body comes back, so only its JSON type is checked.
    operation.responses[String(override.seed)] = response.empty && override.seed !== 204 ? { content_type: "application/json" } : response;
  }
  for (const status of override.also ?? []) operation.responses[String(status)] = response;
}

function addPlatformFormats(ajv: Ajv2020) {
  ajv.addFormat("snowflake", /^(0|[1-9][0-9]{0,19})$/);
  ajv.addFormat("nonce", { type: "string", validate: (value: string) => value.length <= 25 });
  ajv.addFormat("int32", { type: "number", validate: (value: number) => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31 });
  ajv.addFormat("int64", { type: "number", validate: (value: number) => Number.isInteger(value) });
  ajv.addFormat("double", { type: "number", validate: (value: number) => Number.isFinite(value) });
}

function isErrorStatus(status: number) {
  return status >= 400 && status < 500;
}

function decodeSegment(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function preview(value: unknown) {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function valueAt(body: unknown, pointer: string): unknown {
  let current = body;
  for (const token of pointer.split("/").slice(1)) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    current = current !== null && typeof current === "object" ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

function formatErrors(errors: readonly ErrorObject[], body: unknown): string {
  const lines = new Set<string>();
  for (const error of errors) {
    const params = error.params as Record<string, unknown>;
    const detail =
      error.keyword === "enum"
        ? ` ${JSON.stringify(params.allowedValues)}`
        : error.keyword === "additionalProperties"
          ? ` (${String(params.additionalProperty)})`
          : "";
    const got = error.keyword === "required" ? "" : ` (got ${preview(valueAt(body, error.instancePath))})`;
    lines.add(`  ${error.instancePath || "/"} ${error.message ?? error.keyword}${detail}${got}`);
  }
  const all = [...lines];
  const shown = all.slice(0, MAX_REPORTED_ERRORS);
  if (all.length > shown.length) shown.push(`  … ${all.length - shown.length} more`);
  return shown.join("\n");
}
