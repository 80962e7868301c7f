import { describe, expect, it } from "vitest";
import { ROUTES } from "~/server/rest/routes.ts";
import { useTestApp } from "~/test/test-app.ts";
import { openApiDocument } from "./openapi.ts";

const app = useTestApp();

describe("GET /api/v10/openapi.json", () => {
  it("answers the generated document to a caller without credentials", async () => {
    const res = await app.as().get("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toEqual(JSON.parse(JSON.stringify(openApiDocument(ROUTES))));
    expect(res.body.paths["/openapi.json"].get.security).toEqual([]);
  });
});
