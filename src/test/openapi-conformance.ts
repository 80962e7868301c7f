import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import {
  adjustDescription,
  platformDescription,
  SCHEMA_REF_PREFIX,
  type JsonSchema,
  type PlatformOperation,
  type SubsetDocument,
} from "~/server/api-reference/platform-description.ts";
import type { RestExchange } from "./rest-client.ts";

const API_PREFIX = "/api/v10";
const MAX_REPORTED_ERRORS = 30;

type Operation = PlatformOperation;

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
  return conformanceOf(adjustDescription(document));
}

function conformanceOf(document: SubsetDocument): Conformance {
  const adjusted = rewriteRefs(document, document.$id) as SubsetDocument;
  const schemas = adjusted.components.schemas;

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
    if (!schemas[name]) throw new Error(`openapi-subset: no schema named ${name}`);
    const validate = validatorFor(`schema ${name}`, { $ref: `${document.$id}#/$defs/${name}` });
    return validate(value) ? null : `does not match ${name}\n${formatErrors(validate.errors ?? [], value)}`;
  }

  return { matchOperation: (method, path) => findOperation(method, path)?.operationId, check, checkSchema };
}

let shared: Conformance | undefined;

/** The checker for the stored subset, built once per process. */
export function loadConformance(): Conformance {
  shared ??= conformanceOf(platformDescription());
  return shared;
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
