import { setImmediate as nextTurn } from "node:timers/promises";

/** The header line the platform writes and accepts. */
export const TARGET_USERS_HEADER = "user_id";
const SNOWFLAKE = /^\d{1,20}$/;
/** Line problems listed at most (in a refusal, or a failed job's message); the count of the rest is added. */
const PROBLEMS_LISTED = 100;
/** A line longer than this is no id with a stray comma: the file is refused there. */
const MAX_LINE_CHARS = 1024;
/**
 * A large file is read a slice at a time, and the reading waits for a later turn of the event
 * loop once a turn has run this long, so other requests are served between.
 */
const SLICE_BYTES = 64 * 1024;
const TURN_MS = 2;

const NEWLINE = 0x0a;

export type CsvEntry = { line: number; userId: string } | { line: number; problem: string };

/**
 * What one line holds: nothing (blank, or the header on line 1), an id, or its problem. The
 * file is one column: a value may be quoted, and commas separate the values a line has too many of.
 */
function entryOf(text: string, line: number): CsvEntry | null {
  // trim() also takes a byte order mark off the first line.
  const plain = text.trim();
  if (plain === "") return null;
  if (SNOWFLAKE.test(plain)) return { line, userId: plain };
  const values = plain
    .split(",")
    .map((value) =>
      value
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .trim(),
    )
    .filter((value) => value !== "");
  if (line === 1 && values.length === 1 && values[0]!.toLowerCase() === TARGET_USERS_HEADER) return null;
  if (values.length !== 1) return { line, problem: `Line ${line}: expected one user id, found ${values.length} values.` };
  if (!SNOWFLAKE.test(values[0]!)) return { line, problem: `Line ${line}: "${values[0]!.slice(0, 40)}" is not a user id.` };
  return { line, userId: values[0]! };
}

/**
 * Reads a target-users CSV (one column of user ids, an optional `user_id` header) as a stream
 * of entries, a slice's worth at a time: each id with its line, or the problem on that line. A
 * line past MAX_LINE_CHARS ends the reading with its problem. Memory stays bounded whatever the
 * file's size, and no turn of the event loop runs long; `chunks` may come from a request or
 * from storage. Lines are found by their newline bytes (a CR before one is trimmed) and a line
 * of digits alone is taken as it is: a million lines are read in a fraction of a second, where
 * a general CSV parser (csv-parse) took about ten, so an upload is answered soon after it arrived.
 */
export async function* readTargetUsersCsv(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<CsvEntry[]> {
  let line = 0;
  let rest: Buffer = Buffer.alloc(0);
  let turnStarted = performance.now();
  for await (const chunk of chunks) {
    for (let offset = 0; offset < chunk.length; offset += SLICE_BYTES) {
      const data = rest.length > 0 ? Buffer.concat([rest, chunk.subarray(offset, offset + SLICE_BYTES)]) : chunk.subarray(offset, offset + SLICE_BYTES);
      const entries: CsvEntry[] = [];
      let start = 0;
      for (let end = data.indexOf(NEWLINE); end !== -1; start = end + 1, end = data.indexOf(NEWLINE, start)) {
        line += 1;
        if (end - start > MAX_LINE_CHARS) {
          yield [...entries, tooLong(line)];
          return;
        }
        const id = plainId(data, start, end);
        const entry = id === null ? entryOf(data.toString("utf8", start, end), line) : { line, userId: id };
        if (entry) entries.push(entry);
      }
      rest = Buffer.from(data.subarray(start));
      if (rest.length > MAX_LINE_CHARS) {
        yield [...entries, tooLong(line + 1)];
        return;
      }
      if (entries.length > 0) yield entries;
      if (performance.now() - turnStarted > TURN_MS) {
        await nextTurn();
        turnStarted = performance.now();
      }
    }
  }
  const last = rest.length > 0 ? entryOf(rest.toString("utf8"), line + 1) : null;
  if (last) yield [last];
}

/** The id a line holds when it is digits alone (with a CR before its newline), the common case read without decoding; else null. */
function plainId(data: Buffer, start: number, end: number): string | null {
  const last = end > start && data[end - 1] === 0x0d ? end - 1 : end;
  if (last === start || last - start > 20) return null;
  for (let at = start; at < last; at++) {
    const byte = data[at]!;
    if (byte < 0x30 || byte > 0x39) return null;
  }
  return data.toString("latin1", start, last);
}

const tooLong = (line: number): CsvEntry => ({ line, problem: `Line ${line}: longer than ${MAX_LINE_CHARS} characters.` });

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
