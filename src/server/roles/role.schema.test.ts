import { describe, expect, it } from "vitest";
import { isUnicodeEmoji, ROLE_COLOR_MAX, ROLE_MAX, ROLE_NAME_MAX, ZRoleParamsSchema, ZRolePositionsBodySchema } from "./role.schema.ts";

const issueAt = (input: unknown, path: string) => {
  const result = ZRoleParamsSchema.safeParse(input);
  return result.success ? undefined : result.error.issues.find((i) => i.path.join(".") === path);
};

describe("role parameters", () => {
  it(`accepts names up to ${ROLE_NAME_MAX} characters and rejects longer or empty ones`, () => {
    expect(ZRoleParamsSchema.safeParse({ name: "x".repeat(ROLE_NAME_MAX) }).success).toBe(true);
    expect(issueAt({ name: "x".repeat(ROLE_NAME_MAX + 1) }, "name")).toMatchObject({ params: { code: "BASE_TYPE_BAD_LENGTH" } });
    expect(issueAt({ name: "" }, "name")).toBeDefined();
  });

  it("counts characters, not UTF-16 units, in names", () => {
    expect(ZRoleParamsSchema.safeParse({ name: "😀".repeat(ROLE_NAME_MAX) }).success).toBe(true);
  });

  it("takes permissions only as an unsigned decimal string", () => {
    expect(ZRoleParamsSchema.safeParse({ permissions: "268435456" }).success).toBe(true);
    for (const bad of ["0x10", "-1", "1.5", "", "18446744073709551616"]) expect(issueAt({ permissions: bad }, "permissions"), bad).toBeDefined();
    expect(issueAt({ permissions: 8 }, "permissions")).toBeDefined();
  });

  it(`keeps colors within 0..${ROLE_COLOR_MAX}`, () => {
    expect(ZRoleParamsSchema.safeParse({ color: ROLE_COLOR_MAX, colors: { primary_color: 0, secondary_color: ROLE_COLOR_MAX } }).success).toBe(true);
    expect(issueAt({ color: ROLE_COLOR_MAX + 1 }, "color")).toBeDefined();
    expect(issueAt({ color: -1 }, "color")).toBeDefined();
    expect(issueAt({ colors: { primary_color: 0, tertiary_color: ROLE_COLOR_MAX + 1 } }, "colors.tertiary_color")).toBeDefined();
    expect(issueAt({ colors: { secondary_color: 5 } }, "colors.primary_color")).toBeDefined();
  });

  it("accepts null for every field", () => {
    const nulls = { name: null, permissions: null, color: null, colors: null, hoist: null, icon: null, unicode_emoji: null, mentionable: null };
    expect(ZRoleParamsSchema.parse(nulls)).toEqual(nulls);
  });

  it("takes icon only as image data", () => {
    expect(issueAt({ icon: "https://example.com/a.png" }, "icon")).toMatchObject({ params: { code: "IMAGE_INVALID" } });
  });
});

describe("unicode_emoji", () => {
  it("accepts one standard emoji, including sequences", () => {
    for (const emoji of ["😀", "👍🏽", "👨‍👩‍👧", "1️⃣", "🇫🇷", "❤️"]) expect(isUnicodeEmoji(emoji), emoji).toBe(true);
  });

  it("rejects text, bare digits and several emoji", () => {
    for (const bad of ["a", "1", "#", "😀😀", ":smile:", ""]) expect(isUnicodeEmoji(bad), bad).toBe(false);
  });
});

describe("role positions", () => {
  it("takes ids with optional positions, at most one entry per possible role", () => {
    expect(ZRolePositionsBodySchema.safeParse([{ id: "1" }, { id: "2", position: null }, { id: "3", position: 4 }]).success).toBe(true);
    expect(ZRolePositionsBodySchema.safeParse([{ id: "x", position: 1 }]).success).toBe(false);
    expect(ZRolePositionsBodySchema.safeParse([{ id: "1", position: -1 }]).success).toBe(false);
    expect(ZRolePositionsBodySchema.safeParse(Array.from({ length: ROLE_MAX + 2 }, (_, i) => ({ id: String(i + 1) }))).success).toBe(false);
  });
});
