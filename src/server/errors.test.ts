import { describe, expect, it } from "vitest";
import { z } from "zod";
import { addFieldError, fromZodError, invalidField } from "./errors.ts";

const ZMetadataSchema = z.object({ metadata: z.record(z.string(), z.string()) });

describe("field error trees", () => {
  it("keeps errors of fields named like Object's built-ins on those fields, and writes nothing on Object", () => {
    const input = JSON.parse('{"metadata": {"constructor": 1, "toString": 2, "hasOwnProperty": "ok"}}') as unknown;
    const result = ZMetadataSchema.safeParse(input);
    expect(result.success).toBe(false);
    const body = JSON.parse(JSON.stringify(fromZodError(result.error!, input).toBody())) as { errors: Record<string, Record<string, unknown>> };
    const leaf = { _errors: [{ code: "BASE_TYPE_STRING", message: "Could not interpret value as string." }] };
    expect(Object.keys(body.errors.metadata!).sort()).toEqual(["constructor", "toString"]);
    expect(body.errors.metadata).toEqual({ constructor: leaf, toString: leaf });
    expect(Object.hasOwn(Object, "_errors")).toBe(false);
    expect(Object.hasOwn(Object.prototype, "_errors")).toBe(false);
    expect(Object.hasOwn(Function.prototype, "_errors")).toBe(false);
  });

  it("reads a missing field as missing even when Object has a property of that name", () => {
    const input = { metadata: {} };
    const result = z.object({ metadata: z.object({ valueOf: z.string() }) }).safeParse(input);
    const errors = fromZodError(result.error!, input).errors!;
    expect(JSON.parse(JSON.stringify(errors))).toEqual({
      metadata: { valueOf: { _errors: [{ code: "BASE_TYPE_REQUIRED", message: "This field is required" }] } },
    });
  });

  it("builds trees of plain JSON objects", () => {
    const tree = addFieldError({}, ["a", 0, "constructor"], { code: "X", message: "x" });
    addFieldError(tree, ["a", 0, "b"], { code: "Y", message: "y" });
    expect(JSON.stringify(tree)).toBe('{"a":{"0":{"constructor":{"_errors":[{"code":"X","message":"x"}]},"b":{"_errors":[{"code":"Y","message":"y"}]}}}}');
    expect(JSON.stringify(invalidField(["__proto__"], "Z", "z").toBody())).toBe(
      '{"code":50035,"message":"Invalid Form Body","errors":{"__proto__":{"_errors":[{"code":"Z","message":"z"}]}}}',
    );
  });

  it("keeps each node either a field's errors or its children's, as the platform's error schema has it", () => {
    const row = addFieldError({}, ["components", 2], { code: "ROW", message: "row" });
    addFieldError(row, ["components", 2, "components", 0, "url"], { code: "URL", message: "url" });
    expect(row).toEqual({ components: { 2: { _errors: [{ code: "ROW", message: "row" }] } } });
    const child = addFieldError({}, ["components", 2, "components", 0, "url"], { code: "URL", message: "url" });
    addFieldError(child, ["components", 2], { code: "ROW", message: "row" });
    expect(child).toEqual({ components: { 2: { components: { 0: { url: { _errors: [{ code: "URL", message: "url" }] } } } } } });
    addFieldError(child, ["components", 3], { code: "ROW", message: "row" });
    expect(Object.keys((child as { components: object }).components)).toEqual(["2", "3"]);
  });
});
