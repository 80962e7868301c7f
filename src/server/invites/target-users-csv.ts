import { Readable } from "node:stream";
import { parse } from "csv-parse";

/** The header line the platform writes and accepts. */
export const TARGET_USERS_HEADER = "user_id";
const SNOWFLAKE = /^\d{1,20}$/;

export type CsvEntry = { line: number; userId: string } | { line: number; problem: string };

/**
 * Reads a target-users CSV (one column of user ids, an optional `user_id` header) as a
 * stream of entries: each id with its line, or the problem on that line. Memory stays
 * bounded whatever the file's size; `chunks` may come from a request or from storage.
 */
export async function* readTargetUsersCsv(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<CsvEntry> {
  const parser = Readable.from(chunks).pipe(
    // Quotes are plain characters (ids never need them), so a stray one is that line's problem, not the file's.
    parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true, quote: false }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
      const values = record.map((value) => value.replace(/^"(.*)"$/, "$1").trim()).filter((value) => value !== "");
      if (line === 1 && values.length === 1 && values[0]!.toLowerCase() === TARGET_USERS_HEADER) continue;
      if (values.length !== 1) yield { line, problem: `Line ${line}: expected one user id, found ${values.length} values.` };
      else if (!SNOWFLAKE.test(values[0]!)) yield { line, problem: `Line ${line}: "${values[0]!.slice(0, 40)}" is not a user id.` };
      else yield { line, userId: values[0]! };
    }
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 0;
    yield { line, problem: `Line ${line}: ${(error as Error).message}` };
  }
}
