import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "./callback-url.ts";

const ORIGIN = "https://guildhall.example";

describe("safeCallbackPath", () => {
  it.each([
    ["/guilds/1/roles", "/guilds/1/roles"],
    ["/guilds/1?tab=bans#top", "/guilds/1?tab=bans#top"],
    ["/invite/abc", "/invite/abc"],
    // An absolute link to the dashboard itself keeps only its path.
    ["https://guildhall.example/guilds/1", "/guilds/1"],
    // Encoded slashes stay inside one path segment.
    ["/%2F/evil.example", "/%2F/evil.example"],
    ["/%5C/evil.example", "/%5C/evil.example"],
  ])("keeps the same-origin path %j", (raw, expected) => {
    expect(safeCallbackPath(raw, ORIGIN)).toBe(expected);
  });

  it.each([
    ["/\t/evil.example"],
    ["/\n/evil.example"],
    ["/\r\n/evil.example"],
    ["\t//evil.example"],
    [" //evil.example"],
    ["//evil.example"],
    ["///evil.example"],
    ["/\\evil.example"],
    ["\\/evil.example"],
    ["\\\\evil.example"],
    ["https://evil.example/guilds"],
    ["http://guildhall.example/guilds"],
    ["https://guildhall.example.evil.example/"],
    ["https://guildhall.example@evil.example/"],
    ["javascript:alert(1)"],
    ["JaVaScRiPt:alert(1)"],
    ["java\tscript:alert(1)"],
    ["data:text/html,<script>alert(1)</script>"],
    ["mailto:someone@evil.example"],
    ["http://[::1"],
    [""],
  ])("sends %j home", (raw) => {
    expect(safeCallbackPath(raw, ORIGIN)).toBe("/");
  });

  it.each([
    ["/.//evil.example", "/evil.example"],
    ["/..//evil.example", "/evil.example"],
    ["/a/../..//evil.example/x", "/evil.example/x"],
  ])("never returns a path another host could be read from (%j)", (raw, expected) => {
    expect(safeCallbackPath(raw, ORIGIN)).toBe(expected);
  });

  it("treats a missing or repeated parameter as no callback", () => {
    expect(safeCallbackPath(undefined, ORIGIN)).toBe("/");
    expect(safeCallbackPath(["/a", "/b"], ORIGIN)).toBe("/");
  });
});
