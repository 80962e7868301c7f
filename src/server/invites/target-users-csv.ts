import { Readable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { parse } from "csv-parse";

/** The header line the platform writes and accepts. */
export const TARGET_USERS_HEADER = "user_id";
const SNOWFLAKE = /^\d{1,20}$/;
/** Line problems listed at most (in a refusal, or a failed job's message); the count of the rest is added. */
const PROBLEMS_LISTED = 100;
/** A line longer than this is no id with a stray comma: the file is refused there. */
const MAX_LINE_CHARS = 1024;
/**
 * A large file is parsed a slice at a time, each in its own turn of the event loop, and
 * the reading pauses once a turn has run this long, so other requests are served between.
 */
const SLICE_BYTES = 4096;
const TURN_MS = 2;

export type CsvEntry = { line: number; userId: string } | { line: number; problem: string };

/** `chunks` cut into slices of SLICE_BYTES, each handed on in a later turn of the event loop. */
async function* slices(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    for (let offset = 0; offset < chunk.length; offset += SLICE_BYTES) {
      await nextTurn();
      yield chunk.subarray(offset, offset + SLICE_BYTES);
    }
  }
}

/**
 * Reads a target-users CSV (one column of user ids, an optional `user_id` header) as a
 * stream of entries: each id with its line, or the problem on that line. Memory stays
 * bounded whatever the file's size, and no turn of the event loop runs long;
 * `chunks` may come from a request or from storage.
 */
export async function* readTargetUsersCsv(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<CsvEntry> {
  const parser = Readable.from(slices(chunks)).pipe(
    // Quotes are plain characters (ids never need them), so a stray one is that line's problem, not the file's.
    parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true, quote: false, max_record_size: MAX_LINE_CHARS }),
  );
  let turnStarted = performance.now();
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (performance.now() - turnStarted > TURN_MS) {
        await nextTurn();
        turnStarted = performance.now();
      }
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

/** Line problems as a refusal or a failed job lists them: the first PROBLEMS_LISTED, then how many more. */
export function problemList() {
  const listed: string[] = [];
  let more = 0;
  return {
    note(problem: string): void {
      if (listed.length < PROBLEMS_LISTED) listed.push(problem);
      else more += 1;
    },
    get count(): number {
      return listed.length + more;
    },
    lines(): string[] {
      return more > 0 ? [...listed, `…and ${more} more lines with problems.`] : listed;
    },
  };
}
