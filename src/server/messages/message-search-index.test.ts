import { describe, expect, it } from "vitest";
import { ftsQuery, searchWords } from "./message-search-index.ts";

describe("search text", () => {
  it("keeps the words of any script and drops what search engines read as syntax", () => {
    expect(searchWords(`"deploy" OR run* -fail NEAR(a b) col:x café 東京 x2`)).toEqual([
      "deploy",
      "OR",
      "run",
      "fail",
      "NEAR",
      "a",
      "b",
      "col",
      "x",
      "café",
      "東京",
      "x2",
    ]);
    expect(searchWords("!!! ... ***")).toEqual([]);
  });

  it("quotes every word for FTS5, so operators stay words", () => {
    expect(ftsQuery(["deploy", "OR", "NEAR"])).toBe('"deploy" "OR" "NEAR"');
  });
});
