import { describe, expect, it } from "vitest";
import { ApiError } from "~/server/errors.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan, parseRequestJson } from "./json.ts";

const nested = (depth: number) => `${'{"a":['.repeat(depth / 2)}1${"]}".repeat(depth / 2)}`;

describe("request JSON", () => {
  it("counts objects and arrays inside one another, not brackets in strings", () => {
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
    expect(nestsDeeperThan(nested(34), 32)).toBe(true);
    expect(nestsDeeperThan(`["${"[".repeat(100)}", "\\"[[[[", {"b": "}}}]]]"}]`, 2)).toBe(false);
    expect(nestsDeeperThan(`[[1], [2], [[3]]]`, 2)).toBe(true);
  });

  it("parses what is at most MAX_JSON_DEPTH deep and refuses the rest with 50109", () => {
    expect(parseRequestJson(nested(MAX_JSON_DEPTH))).toBeTruthy();
    for (const text of [nested(MAX_JSON_DEPTH + 2), "[".repeat(1_000_000), "{", ""]) {
      const error = (() => {
        try {
          parseRequestJson(text);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe(50109);
    }
  });
});
