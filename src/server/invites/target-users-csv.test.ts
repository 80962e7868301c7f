import { describe, expect, it } from "vitest";
import { readTargetUsersCsv, type CsvEntry } from "./target-users-csv.ts";

async function entriesOf(chunks: Buffer[]): Promise<CsvEntry[]> {
  const all: CsvEntry[] = [];
  for await (const entries of readTargetUsersCsv(chunks)) all.push(...entries);
  return all;
}

/** `text` cut into chunks of `size` bytes, as a request or the stored chunks hand it over. */
const cut = (text: string, size: number) => {
  const bytes = Buffer.from(text);
  return Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
};

describe("reading a target-users CSV", () => {
  it("takes one id a line, after an optional header and BOM, with CRLF, blanks, spaces and quotes", async () => {
    const file = '\ufeffUser_ID\r\n1\r\n\r\n  22 \n"333"\n\t4444\t\n';
    expect(await entriesOf([Buffer.from(file)])).toEqual([
      { line: 2, userId: "1" },
      { line: 4, userId: "22" },
      { line: 5, userId: "333" },
      { line: 6, userId: "4444" },
    ]);
  });

  it("names each line that holds no single id, and a last line without its newline", async () => {
    const file = `1\nuser_id\n4,5\n,\nabc\n${"9".repeat(21)}\n\u00e9t\u00e9\n7`;
    expect(await entriesOf([Buffer.from(file)])).toEqual([
      { line: 1, userId: "1" },
      { line: 2, problem: 'Line 2: "user_id" is not a user id.' },
      { line: 3, problem: "Line 3: expected one user id, found 2 values." },
      { line: 4, problem: "Line 4: expected one user id, found 0 values." },
      { line: 5, problem: 'Line 5: "abc" is not a user id.' },
      { line: 6, problem: `Line 6: "${"9".repeat(21)}" is not a user id.` },
      { line: 7, problem: 'Line 7: "été" is not a user id.' },
      { line: 8, userId: "7" },
    ]);
  });

  it("stops at a line past 1024 characters, with or without its newline yet", async () => {
    expect(await entriesOf([Buffer.from(`1\n${"x".repeat(1100)}\n2\n`)])).toEqual([
      { line: 1, userId: "1" },
      { line: 2, problem: "Line 2: longer than 1024 characters." },
    ]);
    expect(await entriesOf([Buffer.from("x".repeat(70_000))])).toEqual([{ line: 1, problem: "Line 1: longer than 1024 characters." }]);
  });

  it("reads the same whatever the chunks the file arrives in, a line cut anywhere", async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => (i % 997 === 0 ? `"${i}"` : String(1_000_000_000_000 + i)));
    const file = `\ufeffuser_id\r\n${lines.join("\r\n")}\r\nnot one\r\n`;
    const whole = await entriesOf([Buffer.from(file)]);
    expect(whole).toHaveLength(10_001);
    expect(whole.at(-1)).toEqual({ line: 10_002, problem: 'Line 10002: "not one" is not a user id.' });
    for (const size of [1, 2, 3, 7, 1000, 65_537]) expect(await entriesOf(cut(file, size)), `chunks of ${size}`).toEqual(whole);
  });
});
