import { describe, expect, it } from "vitest";
import { mergeDenial } from "./provisional-merge.ts";

const now = new Date("2026-01-01T00:00:00Z");
const full = { id: "1", bot: false, provisionalApplicationId: null, bannedUntil: null };
const provisional = { id: "2", bot: false, provisionalApplicationId: "9", bannedUntil: null };
const base = { applicationId: "9", destination: full, source: provisional, destinationHasOtherIdentity: false, now };

describe("mergeDenial", () => {
  it("allows a provisional account of the application into a full account", () => {
    expect(mergeDenial(base)).toBeNull();
    expect(mergeDenial({ ...base, source: null })).toBeNull();
  });

  it("refuses with 530017 only while the source's ban stands", () => {
    expect(mergeDenial({ ...base, source: { ...provisional, bannedUntil: new Date("2026-01-02T00:00:00Z") } })).toBe("MERGE_SOURCE_BANNED");
    expect(mergeDenial({ ...base, source: { ...provisional, bannedUntil: new Date("2025-12-31T00:00:00Z") } })).toBeNull();
  });

  it("refuses provisional or bot destinations, full or foreign sources, and a second identity", () => {
    expect(mergeDenial({ ...base, destination: { ...provisional, id: "3" } })).toBe("INVALID_MERGE_DESTINATION");
    expect(mergeDenial({ ...base, destination: { ...full, bot: true } })).toBe("INVALID_MERGE_DESTINATION");
    expect(mergeDenial({ ...base, source: { ...full, id: "4" } })).toBe("INVALID_MERGE_SOURCE");
    expect(mergeDenial({ ...base, source: { ...provisional, provisionalApplicationId: "8" } })).toBe("INVALID_MERGE_SOURCE");
    expect(mergeDenial({ ...base, destinationHasOtherIdentity: true })).toBe("TOO_MANY_APPLICATION_IDENTITIES");
  });
});
