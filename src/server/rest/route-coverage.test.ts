import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { routeCoverage, routeCoverageMarkdown } from "./route-coverage.ts";
import { ROUTES } from "./routes.ts";

describe("the route coverage list", () => {
  it("is what the route table serves now (run `npm run coverage:routes` after adding a route)", () => {
    const written = readFileSync(new URL("../../../docs/route-coverage.md", import.meta.url), "utf8");
    expect(written).toBe(routeCoverageMarkdown(routeCoverage(ROUTES)));
  });

  it("matches a path by its literal segments, whatever the parameters are named", () => {
    const rows = routeCoverage([
      { method: "POST", path: "/channels/:channelId/typing" },
      { method: "GET", path: "/users/:userId" },
    ]);
    const byPath = new Map(rows.map((row) => [row.path, row.methods]));
    expect(byPath.get("/channels/{id}/typing")).toEqual(["POST"]);
    expect(byPath.get("/users/{id}")).toEqual(["GET"]);
    expect(byPath.get("/users/@me")).toEqual([]);
    expect(byPath.get("/channels/{id}/messages/{id}/reactions/{id}/@me")).toEqual([]);
  });
});
