// The API reference: an OpenAPI 3.1 document generated from the REST route table, so it says
// what the code does. Paths, auth and scopes come from each row, request shapes from its zod
// schemas, and answers from the platform's description where it has the operation (the
// description every response is held to in the integration tests).
import { env } from "~/env.ts";
import { SCOPES } from "~/server/oauth2/scopes.ts";
import type { Route, RouteAuth } from "~/server/rest/route.ts";
import { platformDescription, SCHEMA_REF_PREFIX, type JsonSchema, type PlatformOperation, type ResponseDescription } from "./platform-description.ts";
import { derivedOperationId, openApiPath, pathParameters, summaryOf, tagOf } from "./route-naming.ts";
import { toRequestJsonSchema } from "./zod-json-schema.ts";

type OpenApiParameter = { name: string; in: "path" | "query"; required: boolean; schema: JsonSchema; description?: string };

type OpenApiMediaType = { schema?: JsonSchema };

export type OpenApiResponse = { description: string; content?: Record<string, OpenApiMediaType> } | { $ref: string };

export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: [string];
  security: Record<string, string[]>[];
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse>;
  /** Who may call beyond what the route's permissions name, and why (the route row's `open`). */
  "x-guildhall-open"?: { to: string; why: string; noop?: true };
};

export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Partial<Record<Lowercase<Route["method"]>, OpenApiOperation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
    headers: Record<string, { description?: string; schema: JsonSchema }>;
    securitySchemes: Record<string, JsonSchema>;
  };
};

/** Security scheme names: the platform's own (`Authorization: Bot <token>` / `Bearer <token>`). */
export const BOT_TOKEN_SCHEME = "BotToken";
export const OAUTH2_SCHEME = "OAuth2";

const JSON_TYPE = "application/json";
const FORM_TYPE = "multipart/form-data";
// RFC 6749's error answers: the token endpoints send these instead of the platform's envelope.
const OAUTH2_ERROR_PATH = "/oauth2/token";

const built = new WeakMap<readonly Route[], OpenApiDocument>();

/** The document for a route table, built once per process and table; callers must not change it. */
export function openApiDocument(routes: readonly Route[]): OpenApiDocument {
  let document = built.get(routes);
  if (!document) built.set(routes, (document = buildOpenApiDocument(routes, env().PUBLIC_BASE_URL)));
  return document;
}

export function buildOpenApiDocument(routes: readonly Route[], publicBaseUrl: string): OpenApiDocument {
  const platform = platformDescription();
  const platformSchemas: Record<string, JsonSchema> = {};
  const ownSchemas: Record<string, JsonSchema> = { OAuth2ErrorResponse: OAUTH2_ERROR_SCHEMA };
  const paths: OpenApiDocument["paths"] = {};
  const operations = Object.values(platform.operations);

  for (const route of routes) {
    const matched = matchPlatformOperation(operations, route);
    const operationId = matched?.operationId ?? derivedOperationId(route);
    const operation: OpenApiOperation = {
      operationId,
      summary: summaryOf(operationId),
      tags: [tagOf(route)],
      security: securityOf(route.auth, route.scopes ?? []),
      parameters: [
        ...pathParameters(route.path).map((name): OpenApiParameter => ({ name, in: "path", required: true, schema: { type: "string" } })),
        ...(route.query ? queryParameters(route, operationId, ownSchemas) : []),
      ],
      responses: {
        ...(matched ? successResponses(matched) : { "2XX": { description: "Success. The platform's published description does not include this operation." } }),
        ...errorResponses(route),
      },
    };
    if (route.open) {
      operation["x-guildhall-open"] = route.open;
      operation.description = `Also open to ${OPEN_WORDS[route.open.to]}: ${route.open.why}`;
    }
    if (route.body) operation.requestBody = requestBody(route, operationId, ownSchemas);
    const pathItem = (paths[openApiPath(route.path)] ??= {});
    pathItem[route.method.toLowerCase() as Lowercase<Route["method"]>] = operation;
  }

  const responses = {
    ClientError: {
      description: "The request was refused (the platform's error envelope).",
      content: { [JSON_TYPE]: { schema: ref(refName(platform.error_envelope["4XX"])) } },
    },
    RateLimited: {
      description: "Rate limited: retry after `retry_after` seconds.",
      content: { [JSON_TYPE]: { schema: ref(refName(platform.error_envelope["429"])) } },
    },
    OAuth2Error: { description: "OAuth2's error answer (RFC 6749 section 5.2).", content: { [JSON_TYPE]: { schema: ref("OAuth2ErrorResponse") } } },
  };

  // Only the platform's schemas the document names, and the ones they name in turn.
  collectReferenced({ paths, responses }, platform.components.schemas, platformSchemas);
  const tags = [...new Set(Object.values(paths).flatMap((item) => Object.values(item).map((operation) => operation.tags[0])))].sort();

  return {
    openapi: "3.1.0",
    info: {
      title: "Guildhall HTTP API",
      version: "10",
      description:
        "Every route of this server, generated from its route table: bots send `Authorization: Bot <token>`, applications acting for a user `Authorization: Bearer <token>`.",
    },
    servers: [{ url: `${publicBaseUrl}/api/v10` }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...platformSchemas, ...ownSchemas },
      responses,
      headers: Object.fromEntries(Object.entries(platform.error_envelope.rate_limit_headers).map(([name, header]) => [name, { ...header }])),
      securitySchemes: securitySchemes(publicBaseUrl),
    },
  };
}

const OPEN_WORDS: Record<NonNullable<Route["open"]>["to"], string> = {
  member: "any member of the guild or lobby, without a permission",
  outsider: "callers outside the guild or lobby",
  token: "any valid token",
  anyone: "anyone, without credentials",
};

const OAUTH2_ERROR_SCHEMA: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "string", description: "RFC 6749's error code, such as invalid_grant." }, error_description: { type: "string" } },
};

function ref(name: string): JsonSchema {
  return { $ref: `${SCHEMA_REF_PREFIX}${name}` };
}

function refName(schema: JsonSchema): string {
  const target = schema.$ref;
  if (typeof target !== "string" || !target.startsWith(SCHEMA_REF_PREFIX)) throw new Error("The platform's error envelope is not a schema reference");
  return target.slice(SCHEMA_REF_PREFIX.length);
}

/** The platform's operation for a row: same method, same literal segments, parameters in the same places. */
function matchPlatformOperation(operations: readonly PlatformOperation[], route: Route): PlatformOperation | undefined {
  const shape = (path: string) => path.split("/").map((segment) => (segment.startsWith(":") || /^\{.+\}$/.test(segment) ? "{}" : segment));
  const wanted = shape(route.path).join("/");
  return operations.find((operation) => operation.method === route.method && shape(operation.path).join("/") === wanted);
}

function securityOf(auth: RouteAuth, scopes: readonly string[]): Record<string, string[]>[] {
  const bot = { [BOT_TOKEN_SCHEME]: [] };
  const bearer = { [OAUTH2_SCHEME]: [...scopes] };
  switch (auth) {
    case "none":
      return [];
    case "bot":
      return [bot];
    case "bearer":
      return [bearer];
    case "any":
      return [bot, bearer];
  }
}

function queryParameters(route: Route, operationId: string, schemas: Record<string, JsonSchema>): OpenApiParameter[] {
  const { schema, definitions } = toRequestJsonSchema(route.query!, `${operationId}_query`);
  Object.assign(schemas, definitions);
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: "query", required: required.has(name), schema: rest, ...(typeof description === "string" ? { description } : {}) };
  });
}

function requestBody(route: Route, operationId: string, schemas: Record<string, JsonSchema>): NonNullable<OpenApiOperation["requestBody"]> {
  const { schema, definitions } = toRequestJsonSchema(route.body!, `${operationId}_body`);
  Object.assign(schemas, definitions);
  const types = route.form === true ? [FORM_TYPE] : route.form === "or-json" ? [JSON_TYPE, FORM_TYPE] : [JSON_TYPE];
  return { required: !route.body!.safeParse(undefined).success, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
}

function successResponses(operation: PlatformOperation): Record<string, OpenApiResponse> {
  const out: Record<string, OpenApiResponse> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!/^2\d\d$/.test(status)) continue;
    out[status] = successResponse(status, response);
  }
  return out;
}

function successResponse(status: string, response: ResponseDescription): OpenApiResponse {
  if (response.empty || status === "204") return { description: "Done; no body." };
  const type = response.content_type ?? JSON_TYPE;
  return { description: "Success.", content: { [type]: response.schema ? { schema: response.schema } : {} } };
}

function errorResponses(route: Route): Record<string, OpenApiResponse> {
  if (route.path.startsWith(OAUTH2_ERROR_PATH)) return { "4XX": { $ref: "#/components/responses/OAuth2Error" }, "429": rateLimited() };
  return { "4XX": { $ref: "#/components/responses/ClientError" }, "429": rateLimited() };
}

function rateLimited(): OpenApiResponse {
  return { $ref: "#/components/responses/RateLimited" };
}

function securitySchemes(publicBaseUrl: string): Record<string, JsonSchema> {
  const scopes = Object.fromEntries(Object.entries(SCOPES).map(([name, info]) => [name, info.grants]));
  const authorizationUrl = `${publicBaseUrl}/oauth2/authorize`;
  const tokenUrl = `${publicBaseUrl}/api/oauth2/token`;
  return {
    [BOT_TOKEN_SCHEME]: { type: "apiKey", in: "header", name: "Authorization", description: "A bot token: `Authorization: Bot <token>`." },
    [OAUTH2_SCHEME]: {
      type: "oauth2",
      description: "A user's access token for an application: `Authorization: Bearer <token>`.",
      flows: {
        authorizationCode: { authorizationUrl, tokenUrl, refreshUrl: tokenUrl, scopes },
        implicit: { authorizationUrl, scopes },
        clientCredentials: { tokenUrl, scopes },
      },
    },
  };
}

function collectReferenced(from: unknown, available: Record<string, JsonSchema>, into: Record<string, JsonSchema>) {
  const pending = [from];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...(value as unknown[]));
    else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) {
        if (key === "$ref" && typeof child === "string" && child.startsWith(SCHEMA_REF_PREFIX)) {
          const name = child.slice(SCHEMA_REF_PREFIX.length);
          const schema = available[name];
          if (schema && !into[name]) {
            into[name] = schema;
            pending.push(schema);
          }
        } else pending.push(child);
      }
    }
  }
}
