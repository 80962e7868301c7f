import { describe, expect, it } from "vitest";
import { invalidField } from "~/server/errors.ts";
import { fieldErrorsOf, type ApiClientError } from "./server-errors.ts";

/** A tRPC client error carrying a service's field errors, as the error formatter sends them. */
const clientError = (path: string[]) =>
  ({ data: { fieldErrors: JSON.parse(JSON.stringify(invalidField(path, "X", "Bad.").errors)) as unknown } }) as ApiClientError;

describe("field errors in forms", () => {
  it("places errors of fields named like Object's built-ins", () => {
    expect(fieldErrorsOf(clientError(["toString"]))).toEqual({ toString: "Bad." });
    expect(fieldErrorsOf(clientError(["body", "constructor"]))).toEqual({ constructor: "Bad." });
    expect(Object.keys(fieldErrorsOf(clientError(["__proto__"])))).toEqual(["__proto__"]);
  });
});
