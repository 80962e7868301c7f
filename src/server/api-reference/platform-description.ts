// The conformance subset of the platform's official API description, with Guildhall's
// recorded adjustments applied (the seed's statuses and nullability win, spec defects,
// typings drift). The integration tests check every response against it and the API
// reference names its answers from it, so both read the same adjusted document.
import subset from "./platform-subset.json" with { type: "json" };
import { withPlatformSurfaces } from "./platform-surfaces.ts";

export type JsonSchema = Record<string, unknown>;

export type ResponseDescription = { content_type?: string; schema?: JsonSchema; empty?: boolean; ref?: string };

export type PlatformOperation = { operationId: string; method: string; path: string; responses: Record<string, ResponseDescription> };

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
  operations: Record<string, PlatformOperation>;
  components: { schemas: Record<string, JsonSchema> };
};

/** References inside the description point here (`#/components/schemas/Name`), as in an OpenAPI document. */
export const SCHEMA_REF_PREFIX = "#/components/schemas/";

// Every key the document may carry. An unknown key is an adjustment this module would
// silently skip, so it stops the load instead.
const KNOWN_KEYS = {
  document: ["$id", "meta", "error_envelope", "seed_overrides", "spec_defect_overrides", "status_overrides", "drift", "operations", "components"],
  seed: ["schema", "why", "optional", "nullable", "non_nullable", "require", "add_enum"],
  defect: ["schema", "why", "set_property", "replace_schema"],
  status: ["operationId", "seed", "spec", "also", "note"],
  drift: ["npm_version", "schemas", "missing_paths"],
  schemaDrift: ["name", "note", "added", "removed", "now_required", "now_optional"],
  response: ["content_type", "schema", "empty", "ref"],
} as const;

/** A copy of the stored subset as published, with the stored surfaces' operations (platform-surfaces.ts), before adjustments. */
export function platformSubset(): SubsetDocument {
  return withPlatformSurfaces(structuredClone(subset as unknown as SubsetDocument));
}

/** Applies the recorded adjustments to a copy of `document`; throws on an adjustment it does not know or that names nothing. */
export function adjustDescription(document: SubsetDocument): SubsetDocument {
  validateDocumentKeys(document);
  const adjusted = structuredClone(document);
  const schemas = adjusted.components.schemas;
  for (const override of adjusted.seed_overrides) for (const name of override.schema) applySeedOverride(schemaNamed(schemas, name), override, name);
  for (const override of adjusted.spec_defect_overrides) for (const name of override.schema) applySpecDefectOverride(schemas, override, name);
  for (const drift of adjusted.drift.schemas) applyDrift(schemaNamed(schemas, drift.name), drift);
  for (const override of adjusted.status_overrides) applyStatusOverride(adjusted.operations, override);
  return adjusted;
}

let shared: SubsetDocument | undefined;

/** The adjusted description of the stored subset, built once per process; callers must not change it. */
export function platformDescription(): SubsetDocument {
  shared ??= adjustDescription(withMediaChannels(platformSubset()));
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

function assertKnownKeys(value: object, known: readonly string[], where: string) {
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new Error(`openapi-subset: ${where} has keys this checker does not apply: ${unknown.join(", ")}`);
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
function applyStatusOverride(operations: Record<string, PlatformOperation>, override: StatusOverride) {
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
