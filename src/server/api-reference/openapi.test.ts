import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ROUTES } from "~/server/rest/routes.ts";
import type { Route } from "~/server/rest/route.ts";
import { validArbitrary } from "~/test/zod-arbitrary.ts";
import { BOT_TOKEN_SCHEME, buildOpenApiDocument, OAUTH2_SCHEME, openApiDocument, type OpenApiOperation } from "./openapi.ts";
import type { JsonSchema } from "./platform-description.ts";
import { openApiPath } from "./route-naming.ts";

const document = openApiDocument(ROUTES);
const operationOf = (route: Route) => document.paths[openApiPath(route.path)]?.[route.method.toLowerCase() as "get"];

describe("the generated document", () => {
  it("is valid OpenAPI 3.1 and every reference in it resolves", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it("is built once per process and route table", () => {
    expect(openApiDocument(ROUTES)).toBe(document);
  });

  it("has every row of the route table exactly once, with its auth and scopes", () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(ROUTES.length);
    expect(new Set(operations.map((operation) => operation.operationId)).size).toBe(ROUTES.length);
    const expected = { none: [], bot: [[BOT_TOKEN_SCHEME]], bearer: [[OAUTH2_SCHEME]], any: [[BOT_TOKEN_SCHEME], [OAUTH2_SCHEME]] };
    for (const route of ROUTES) {
      const operation = operationOf(route);
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation!.security.map((requirement) => Object.keys(requirement))).toEqual(expected[route.auth]);
      for (const requirement of operation!.security) if (OAUTH2_SCHEME in requirement) expect(requirement[OAUTH2_SCHEME]).toEqual(route.scopes ?? []);
      expect(operation!.parameters.filter((parameter) => parameter.in === "path").map((parameter) => `:${parameter.name}`)).toEqual(
        route.path.match(/:[A-Za-z]+/g) ?? [],
      );
      expect(operation!["x-guildhall-open"]).toEqual(route.open);
    }
  });

  it("covers a row added to the table without naming it anywhere", () => {
    const row: Route = {
      method: "POST",
      path: "/oauth2/token/example/:thingId",
      auth: "bearer",
      scopes: ["identify"],
      handler: () => Promise.resolve({ status: 204 }),
    };
    const built = buildOpenApiDocument([...ROUTES, row], "http://guildhall.test");
    const operation = built.paths["/oauth2/token/example/{thingId}"]?.post;
    expect(operation).toMatchObject({ operationId: "post_oauth2_token_example_by_thingId", tags: ["OAuth2"], security: [{ [OAUTH2_SCHEME]: ["identify"] }] });
    expect(operation!.responses["4XX"]).toEqual({ $ref: "#/components/responses/OAuth2Error" });
    expect(built.servers).toEqual([{ url: "http://guildhall.test/api/v10" }]);
  });

  it("names the platform's answer where the platform describes the operation, and the error envelope everywhere", () => {
    const member = document.paths["/guilds/{guildId}/members/{userId}"]!;
    expect(member.get!.operationId).toBe("get_guild_member");
    expect(member.get!.responses["200"]).toMatchObject({ content: { "application/json": { schema: { $ref: "#/components/schemas/GuildMemberResponse" } } } });
    expect(member.delete!.responses["204"]).toEqual({ description: "Done; no body." });
    expect(document.components.schemas.GuildMemberResponse).toBeDefined();
    for (const operation of Object.values(document.paths).flatMap((item) => Object.values(item))) {
      expect(Object.keys(operation.responses).filter((status) => status.startsWith("2")).length, operation.operationId).toBeGreaterThan(0);
      expect(operation.responses["4XX"]).toBeDefined();
    }
  });

  it("takes forms as multipart, files as binary parts", () => {
    const upload = document.paths["/invites/{code}/target-users"]!.put!;
    expect(Object.keys(upload.requestBody!.content)).toEqual(["multipart/form-data"]);
    expect(upload.requestBody!.content["multipart/form-data"]!.schema).toMatchObject({
      properties: { target_users_file: { type: "string", contentMediaType: "application/octet-stream" } },
      required: ["target_users_file"],
    });
    expect(Object.keys(document.paths["/channels/{channelId}/messages"]!.post!.requestBody!.content)).toEqual(["application/json", "multipart/form-data"]);
  });

  it("gives parts zod cannot state in JSON Schema a representation instead of stopping", () => {
    const strict = (schema: z.ZodType) => {
      try {
        z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" });
        return true;
      } catch {
        return false;
      }
    };
    const unrepresentable = ROUTES.filter((route) => (route.body !== undefined && !strict(route.body)) || (route.query !== undefined && !strict(route.query)));
    expect(unrepresentable.length).toBeGreaterThan(0);
    for (const route of unrepresentable) {
      const text = JSON.stringify(operationOf(route)!);
      expect(text.includes("contentMediaType") || text.includes("Checked by the server"), `${route.method} ${route.path}`).toBe(true);
    }
  });

  it("gives query parameters their names, requiredness and types", () => {
    const search = document.paths["/guilds/{guildId}/members/search"]!.get!;
    expect(search.parameters.find((parameter) => parameter.name === "query")).toMatchObject({ in: "query", required: true, schema: { type: "string" } });
    expect(search.parameters.find((parameter) => parameter.name === "limit")).toMatchObject({ in: "query", required: false });
  });
});

describe("request bodies as JSON Schema", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const bodyValidator = (operation: OpenApiOperation) => {
    const schema = Object.values(operation.requestBody!.content)[0]!.schema!;
    return ajv.compile({ ...schema, components: { schemas: document.components.schemas } });
  };
  const withBodies = ROUTES.filter((route) => route.body);

  it.each(withBodies.map((route) => [`${route.method} ${route.path}`, route] as const))(
    "%s: a valid body validates, a wrong-typed one does not",
    (_name, route) => {
      const operation = operationOf(route)!;
      const validate = bodyValidator(operation);
      const schema = Object.values(operation.requestBody!.content)[0]!.schema!;
      const samples = fc.sample(validArbitrary(route.body!, { ids: ["1000", "2000"] }), { numRuns: 60, seed: 7 });
      // No body at all is the request body being optional, which the document says apart.
      expect(operation.requestBody!.required).toBe(!route.body!.safeParse(undefined).success);
      const accepted = samples.filter((value) => value !== undefined && route.body!.safeParse(value).success);
      if (hasFilePart(schema)) return;
      expect(accepted.length, "no sample the zod schema takes").toBeGreaterThan(0);
      for (const value of accepted) expect(validate(value), `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`).toBe(true);

      if (Object.keys(schema).length === 0) return; // read by the handler: the schema takes any JSON, as the row does
      const wrong = wrongTyped(schema, accepted[0]);
      expect(route.body!.safeParse(wrong).success, `zod takes ${JSON.stringify(wrong)}`).toBe(false);
      expect(validate(wrong), `the document takes ${JSON.stringify(wrong)}`).toBe(false);
    },
  );
});

function hasFilePart(schema: JsonSchema): boolean {
  return JSON.stringify(schema).includes('"contentMediaType"');
}

/** A value of the wrong type: an object's first typed property given another type, or the whole body as a number. */
function wrongTyped(schema: JsonSchema, valid: unknown): unknown {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties && valid !== null && typeof valid === "object" && !Array.isArray(valid)) {
    for (const [key, property] of Object.entries(properties)) {
      const type = property.type;
      if (typeof type !== "string") continue;
      return { ...valid, [key]: type === "object" || type === "array" ? "not the right type" : { wrong: true } };
    }
  }
  return schema.type === "string" ? 12345 : "not the right type";
}
