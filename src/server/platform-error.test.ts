import { describe, expect, it } from "vitest";
import { ApiError } from "./errors.ts";
import { platformErrorOf } from "./platform-error.ts";

describe("platformErrorOf", () => {
  it("keeps a domain error, reads a missing row as NOT_FOUND, and leaves anything else unexpected", () => {
    const domain = new ApiError("UNKNOWN_GUILD");
    expect(platformErrorOf(domain)).toBe(domain);
    expect(platformErrorOf(Object.assign(new Error("No record was found for a delete."), { code: "P2025" }))?.toBody()).toEqual({
      code: 0,
      message: "404: Not Found",
    });
    // A unique clash is a rule's to decide (a race it handles), never a translation of its own.
    expect(platformErrorOf(Object.assign(new Error("Unique constraint failed"), { code: "P2002" }))).toBeNull();
    expect(platformErrorOf(new Error("SQLITE_CORRUPT"))).toBeNull();
    expect(platformErrorOf(null)).toBeNull();
  });
});
